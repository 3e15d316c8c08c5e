package agent

import (
	"context"
	"sync"
	"time"

	"trestle/app/changeset"
	"trestle/app/eval"
	"trestle/app/gitstatus"
	"trestle/app/task"
	"trestle/app/trust"
	"trestle/app/workbench"
)

// Snapshot is what the person sees, as an agent is told it first.
type Snapshot struct {
	Root, Module string
	Tabs         []workbench.Tab // in tab order
	Active       string          // the active tab's path, "" with none
	// Selection is the active editor's caret and selection; nil without an
	// editor.
	Selection  *workbench.EditorSelection
	Evaluators []eval.WorkerStatus
	Run        *task.Run // the running task, nil when none runs
	Pending    []string  // ids of the change sets waiting for the person
	// Git is the work tree's git state, nil outside a repository or when
	// GitError says why it could not be read.
	Git      *gitstatus.Status
	GitError string
	// ConfigError is .trestle.json's problem; the defaults are used.
	ConfigError string
	Trust       TrustState
}

// TrustState is the project's trust (package trust): what is off while it
// is untrusted, and what .trestle.json asked for that is withheld.
type TrustState struct {
	Trusted  bool
	Off      []string // what an untrusted project may not do
	Withheld string   // what of .trestle.json was not used
	How      string   // how the person trusts the project
}

// Workbench is a snapshot of what the person sees: the window's tabs and
// selection, the evaluators, the running task, pending change sets, git
// and trust. It needs a window: an error from its bounded call (busy) is
// returned.
func (a *Agent) Workbench(ctx context.Context) (Snapshot, error) {
	win := a.cfg.Window
	tabs, err := win.Tabs(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	snap := Snapshot{Root: a.cfg.Project.Root, Module: a.cfg.Project.Module, Tabs: tabs, Pending: []string{}}
	for _, t := range tabs {
		if t.Active {
			snap.Active = t.Path
		}
	}
	if sel, err := win.Selection(ctx); err == nil {
		snap.Selection = &sel
	}
	a.addServices(&snap)
	a.addGit(ctx, &snap)
	return snap, nil
}

// addServices adds the evaluators, the run, the pending change sets and trust.
func (a *Agent) addServices(snap *Snapshot) {
	sv := a.cfg.Services
	if sv.Eval != nil {
		snap.Evaluators = sv.Eval.Status()
	}
	if sv.Tasks != nil {
		snap.Run = sv.Tasks.Current()
	}
	if sv.ChangeSets != nil {
		if list, err := sv.ChangeSets.List(changeset.StatePending); err == nil {
			for _, cs := range list {
				snap.Pending = append(snap.Pending, cs.ID)
			}
		}
	}
	conf, err := a.config()
	if err != nil {
		snap.ConfigError = err.Error()
	}
	snap.Trust = TrustState{Trusted: sv.Trust.Trusted()}
	if !snap.Trust.Trusted {
		snap.Trust.Off, snap.Trust.Withheld, snap.Trust.How = trust.Off, conf.Withheld.Summary(), trust.HowToTrust
	}
}

func (a *Agent) addGit(ctx context.Context, snap *Snapshot) {
	st, ok, err := a.git.read(ctx, a.cfg.Project.Root, a.cfg.Services.Trust.Trusted())
	switch {
	case err != nil:
		snap.GitError = err.Error()
	case ok:
		snap.Git = &st
	}
}

// gitTTL is how long a git status is reused: agents look at the workbench
// often, and each git status is a process that scans the work tree.
const gitTTL = 2 * time.Second

// gitCache remembers the last git status for gitTTL; concurrent callers
// wait for one read instead of starting their own. Safe for concurrent use.
type gitCache struct {
	mu  sync.Mutex
	at  time.Time
	st  gitstatus.Status
	ok  bool
	err error
	// trusted is the trust the status was read under.
	trusted bool
}

func (c *gitCache) read(ctx context.Context, dir string, trusted bool) (gitstatus.Status, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if time.Since(c.at) > gitTTL || c.trusted != trusted {
		c.st, c.ok, c.err = gitstatus.Read(ctx, dir, trusted)
		c.at, c.trusted = time.Now(), trusted
	}
	return c.st, c.ok, c.err
}
