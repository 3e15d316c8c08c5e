package eval

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

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
	s := compiled.New(compiled.Options{Root: m.opts.Root, Tags: sel.Tags, Env: sel.Env, MaxOutput: MaxOutputBytes, MemoryLimit: m.memoryLimit()})
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

// wantsCompiled applies the routing rule's syntactic part (see
// compiled.Session.Wants) before the interpreter is tried.
func (m *Manager) wantsCompiled(name, code string) (bool, string) {
	return m.compiledSession(name).Wants(code, m.opts.Module)
}

// fallBackCompiled is the rule's second part: an interpreter compile error
// saying it lacks a feature (compiled.Unsupported), with nothing printed
// yet, sends the input to the compiled evaluator.
func fallBackCompiled(res Result) bool {
	return res.Err != "" && res.Output == "" && compiled.Unsupported(res.Err)
}

// noteInterpreted lets later compiled inputs use what this interpreted
// input imported.
func (m *Manager) noteInterpreted(name, code string, res Result) {
	if res.Err == "" {
		m.compiledSession(name).NoteImports(code)
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
