package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/modfile"

	"trestle/app/eval/compiled"
)

// Modes of an evaluation (Result.Mode).
const (
	ModeInterpreted = "interpreted" // run by the selection's yaegi worker
	ModeCompiled    = "compiled"    // built and run as a program (package compiled)
)

// compiledSessions are the selections' compiled evaluators, created on
// first use. Safe for concurrent use.
type compiledSessions struct {
	mu       sync.Mutex
	sessions map[string]*compiled.Session
}

// compiledSession returns the selection's session, creating it.
func (m *Manager) compiledSession(name string) *compiled.Session {
	c := &m.compiled
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.sessions[name]; s != nil {
		return s
	}
	m.mu.Lock()
	sel := m.opts.Selections[name]
	m.mu.Unlock()
	s := compiled.New(compiled.Options{Root: m.opts.Root, Module: m.opts.Module, Tags: sel.Tags, Env: sel.Env, MaxOutput: MaxOutputBytes,
		MemoryLimit: m.memoryLimit(), Refuse: m.untrustedNative,
		Building: func(building bool) { m.compiledBuilding(name, building) }, DependencyDir: m.dependencyDir})
	if c.sessions == nil {
		c.sessions = map[string]*compiled.Session{}
	}
	c.sessions[name] = s
	return s
}

// existingCompiled returns the selection's session or nil.
func (m *Manager) existingCompiled(name string) *compiled.Session {
	m.compiled.mu.Lock()
	defer m.compiled.mu.Unlock()
	return m.compiled.sessions[name]
}

// wantsCompiled applies the routing rule's syntactic part before the
// interpreter is tried: what it cannot run (compiled.Session.Wants), and
// what it would run wrong (compiled.Session.Misread).
//
// The execution model: a value is what `go run` gives, or the answer says
// why not. The interpreter is only a fast path, taken where it is known to
// be right: on values of native types (the standard library, the
// dependencies and the project packages the worker links) and on project
// code that declares no types of its own. yaegi represents interpreted
// types as anonymous reflect types, so a project struct's value crossing
// into fmt, encoding/json, errors or reflect has lost its name, its
// unexported fields and its methods: json.Marshal adds "Xnote", errors.As
// panics, errors.Is is false where Go says true. Those inputs, and those
// with a select case that assigns, a closure over a loop variable (shared
// across the loop in yaegi, one per iteration in Go 1.22), generics,
// iter.Seq or range over an integer, run compiled (the note says why; the
// rule is in compiled/misread.go): a real `go build` of the same
// code, so the value is Go's. State crosses over by replay: a compiled
// input runs again first the earlier inputs (of either engine) that
// define or change what it uses, and an input that uses what a compiled
// input defined runs compiled (compiled/history.go).
//
// What the worker links decides what it would misread, so when no worker
// runs yet and a native one may start (which may wait for its build), an
// input that would run compiled on the fallback's terms first starts the
// worker, as the interpreter would, and is judged on what that links; the
// start's notes go into res.
func (m *Manager) wantsCompiled(ctx context.Context, s *slot, code string, res *Result) (bool, string) {
	c := m.compiledSession(s.name)
	if ok, why := c.Wants(code, m.opts.Module); ok {
		return ok, why
	}
	l, started := m.linked(ctx, s, code)
	ok, why := c.Misread(code, m.opts.Module, l)
	if ok && !started && m.opts.Native {
		if _, notes, err := m.ensure(ctx, s); err == nil {
			res.Notes = append(res.Notes, notes...)
			l, _ = m.linked(ctx, s, code)
			ok, why = c.Misread(code, m.opts.Module, l)
		}
	}
	return ok, why
}

// linked says which packages the selection's worker links natively for
// code, and whether a worker runs (else the answer is the fallback's). The
// project's native packages that code needs are linked when it runs
// (ensureLinked), so they count as linked before they are. The fallback
// interpreter (no native build yet, or none) interprets every project
// package and the dependencies from source.
func (m *Manager) linked(ctx context.Context, s *slot, code string) (compiled.Linked, bool) {
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	var native []string
	if p != nil && p.bin != "" {
		native = slices.Clone(p.native)
		if plan := m.linkPlan(ctx, s.name, importsOf(code)); plan != nil {
			native = append(native, plan.OnImport(importsOf(code))...)
		}
	}
	l := compiled.Linked{Native: func(path string) bool { return slices.Contains(native, path) }}
	if p == nil || p.bin == "" {
		l.Dependency = m.dependencyDir
	}
	return l, p != nil
}

// dependencyDir is the source folder of a dependency's package, from the
// project's go.mod and the module cache; "" when it is not found.
func (m *Manager) dependencyDir(path string) string {
	data, err := os.ReadFile(filepath.Join(m.opts.Root, "go.mod"))
	if err != nil {
		return ""
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return ""
	}
	m.mu.Lock()
	modCache := m.modCache
	m.mu.Unlock()
	if modCache == "" { // before the first worker start
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		modCache, err = goModCache(ctx)
		cancel()
		if err != nil {
			return ""
		}
	}
	mounts, _ := modMounts(mf, m.opts.Root, modCache)
	best := mountPoint{}
	for _, mp := range mounts {
		if (path == mp.path || strings.HasPrefix(path, mp.path+"/")) && len(mp.path) > len(best.path) {
			best = mp
		}
	}
	if best.dir == "" {
		return ""
	}
	return filepath.Join(best.dir, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(path, best.path), "/")))
}

// interpreterLog is a line the interpreter logs before it panics with
// "nil type" (importing a package that ranges over an integer, or
// compiling a range over a func variable): it goes to the captured output,
// but nothing of the input ran (yaegi compiles an input whole before it
// runs any of it).
var interpreterLog = regexp.MustCompile(`^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d .*$`)

// fallBackCompiled is the rule's second part: an interpreter compile error
// saying it lacks a feature (compiled.Unsupported), or a dependency's
// package it failed to interpret from source (one the native worker does
// not link: x/text/message, whose internal/number yaegi refused with
// "cannot convert expression of type language.Tag to type compact.Tag",
// which Go compiles), with nothing printed yet (or only the interpreter's
// own log line), sends the input to the compiled evaluator. module is the
// project's module path.
func fallBackCompiled(res Result, module string) bool {
	if res.Err == "" || !compiled.Unsupported(res.Err) && !dependencyImportFailed(res.Err, module) {
		return false
	}
	if res.trace != "" {
		return false // the input ran (and panicked): running it again would repeat what it did
	}
	if res.Output == "" {
		return true
	}
	for _, line := range strings.Split(strings.TrimSuffix(res.Output, "\n"), "\n") {
		if !interpreterLog.MatchString(line) {
			return false
		}
	}
	return true
}

// dependencyImportFailed reports whether errText is the interpreter's
// failure to import a dependency's package (not the project's, whose
// failures compile.go answers, nor a missing one, which goerrors.go words
// as go does).
func dependencyImportFailed(errText, module string) bool {
	const prefix = `import "`
	if !strings.HasPrefix(errText, prefix) || noSource.MatchString(errText) {
		return false
	}
	path, _, ok := strings.Cut(errText[len(prefix):], `"`)
	first, _, _ := strings.Cut(path, "/")
	return ok && strings.Contains(first, ".") && path != module && !strings.HasPrefix(path, module+"/")
}

// noteInterpreted lets later compiled inputs use what this interpreted
// input imported and defined (compiled/history.go).
func (m *Manager) noteInterpreted(name, code string, res Result) {
	if res.Err == "" {
		m.compiledSession(name).NoteInterpreted(code, res.Type != "")
	}
}

// forgetInterpreted tells the compiled side that the interpreter's state
// is gone (its worker died or was killed).
func (m *Manager) forgetInterpreted(name string) {
	if c := m.existingCompiled(name); c != nil {
		c.ForgetInterpreted()
	}
}

// evalCompiled runs code compiled and completes res (which carries the
// notes so far). The selection's turn is held.
func (m *Manager) evalCompiled(ctx context.Context, name, code string, timeout time.Duration, res Result, start time.Time, why string) (Result, error) {
	r, err := m.compiledSession(name).Run(ctx, code, timeout)
	res.Mode = ModeCompiled
	res.Value, res.Type, res.Output, res.Err = r.Value, r.Type, r.Output, r.Err
	res.Notes = append(res.Notes, fmt.Sprintf("ran compiled because %s (build %s, run %s)", why,
		r.Build.Round(time.Millisecond), r.Run.Round(time.Millisecond)))
	if len(r.Replaced) > 0 {
		res.Notes = append(res.Notes, "redefined "+strings.Join(r.Replaced, ", "))
	}
	res.Notes = append(res.Notes, r.Notes...)
	if r.Dropped > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("output cut: the first %d bytes are kept, %d more were dropped", MaxOutputBytes, r.Dropped))
	}
	res.Duration = time.Since(start)
	if err != nil {
		return res, fmt.Errorf("evaluate in selection %q: %w", name, err)
	}
	return res, nil
}

// stopCompiled stops a compiled run in the selection, reporting whether
// there was one.
func (m *Manager) stopCompiled(name string) bool {
	if s := m.existingCompiled(name); s != nil {
		return s.Stop()
	}
	return false
}

// resetCompiled forgets the selection's compiled declarations (Restart):
// the session is stopped and dropped, and the next compiled input starts a
// new one with the selection's current tags and environment.
func (m *Manager) resetCompiled(name string) {
	m.compiled.mu.Lock()
	s := m.compiled.sessions[name]
	delete(m.compiled.sessions, name)
	m.compiled.mu.Unlock()
	if s != nil {
		s.Reset() // stops a run in progress; it commits nothing
		s.Close()
	}
}

// closeCompiled stops and removes every compiled session (Close).
func (m *Manager) closeCompiled() {
	m.compiled.mu.Lock()
	sessions := m.compiled.sessions
	m.compiled.sessions = nil
	m.compiled.mu.Unlock()
	for _, s := range sessions {
		s.Close()
	}
}
