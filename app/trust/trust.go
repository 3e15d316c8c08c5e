package trust

import (
	"fmt"
	"sync"

	"trestle/app/projconf"
	"trestle/app/store"
)

// Off lists, in the person's words, what is off in an untrusted project;
// the window and trestle_workbench show it.
var Off = []string{
	"git runs without the repository's own settings (no filter, diff driver, textconv, include, hook or fsmonitor)",
	".trestle.json tasks are not run: Build and Vet run go build and go vet",
	"Test does not run until you trust the project: go test runs the project's own code (its tests, TestMain and init functions)",
	".trestle.json selections keep their build tags but not their environment or preloaded packages",
}

// HowToTrust tells the person (or, through an agent, the person) how to
// trust a project.
const HowToTrust = "trust the project in the window (the status bar's \"Untrusted\", then Trust) " +
	"or start trestle --mcp with --trust"

// Project is the trust of one project folder. A nil *Project is an
// untrusted project that cannot be trusted. Safe for concurrent use.
type Project struct {
	root  string
	store *store.Store // nil: nothing is remembered

	mu      sync.Mutex
	trusted bool
	forRun  bool // trusted for this run only (--trust); the store is unchanged
	subs    map[int]func(bool)
	seq     int
}

// Load returns the trust of project folder root as the store remembers
// it (untrusted without a store, or when the store cannot be read: the
// error says why). forRun trusts it for this process only (--trust).
func Load(root string, st *store.Store, forRun bool) (*Project, error) {
	p := &Project{root: root, store: st, forRun: forRun, trusted: forRun}
	if st == nil || forRun {
		return p, nil
	}
	trusted, err := st.ProjectTrusted(root)
	p.trusted = trusted
	return p, err
}

// Root is the project folder.
func (p *Project) Root() string { return p.root }

// Trusted reports whether the project is trusted now.
func (p *Project) Trusted() bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.trusted
}

// ForThisRun reports whether the project is trusted only for this run
// (--trust): revoking it then lasts until the process ends.
func (p *Project) ForThisRun() bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.forRun
}

// Set trusts the project (remembered in the store, when there is one) or
// revokes its trust, and tells every OnChange function when that changed
// what the project is. The subscribers run on the caller's goroutine,
// after the lock is released.
func (p *Project) Set(trusted bool) error {
	if p == nil {
		return fmt.Errorf("this project cannot be trusted")
	}
	var err error
	if p.store != nil {
		err = p.store.SetProjectTrusted(p.root, trusted)
	}
	p.mu.Lock()
	changed := p.trusted != trusted
	p.trusted = trusted
	if !trusted {
		p.forRun = false
	}
	subs := make([]func(bool), 0, len(p.subs))
	for _, fn := range p.subs {
		subs = append(subs, fn)
	}
	p.mu.Unlock()
	if changed {
		for _, fn := range subs {
			fn(trusted)
		}
	}
	return err
}

// OnChange calls fn with the new trust each time Set changes it, until
// cancel is called.
func (p *Project) OnChange(fn func(trusted bool)) (cancel func()) {
	if p == nil {
		return func() {}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.subs == nil {
		p.subs = map[int]func(bool){}
	}
	p.seq++
	id := p.seq
	p.subs[id] = fn
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		delete(p.subs, id)
	}
}

// Config wraps get (the project's .trestle.json over the defaults) so
// that an untrusted project gets projconf.Config.Untrusted: the defaults
// and what was withheld. It follows the trust as it changes.
func (p *Project) Config(get func() (projconf.Config, error)) func() (projconf.Config, error) {
	return func() (projconf.Config, error) {
		c, err := get()
		if !p.Trusted() {
			c = c.Untrusted()
		}
		return c, err
	}
}

// Selections is c's selections as the project's trust allows them, for
// the evaluator.
func (p *Project) Selections(c projconf.Config) map[string]projconf.Selection {
	if !p.Trusted() {
		c = c.Untrusted()
	}
	return c.Selections
}
