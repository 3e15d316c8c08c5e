package eval

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"trestle/app/errdefs"
	"trestle/app/projconf"
)

// A selection's slot: its worker, its turn and its state.

// State is a selection's worker state.
type State string

// Worker states.
const (
	StateIdle    State = "idle"    // a worker is up and waiting
	StateRunning State = "running" // a worker is evaluating
	StateStopped State = "stopped" // no worker: never started, stopped, restarted or past a deadline
	StateDead    State = "dead"    // the worker exited by itself (os.Exit, crash)
)

// WorkerStatus describes one selection's worker.
type WorkerStatus struct {
	Selection   string `json:"selection"`
	State       State  `json:"state"`
	PID         int    `json:"pid"`         // 0 without a worker
	Evaluations int    `json:"evaluations"` // answered by the current worker
	// Activity says what the running evaluation waits for, when it waits
	// for a build ("building a compiled input for 12s"), else "".
	Activity string `json:"activity,omitempty"`
	// Native says where the selection's native worker build stands, in
	// one short line (NativeState.Summary); "" when native workers are
	// off or before any build. trestle_workbench's evaluators carry it.
	Native string `json:"native,omitempty"`
}

// slot is one selection's worker. turn is held by the evaluation in progress.
type slot struct {
	name string
	turn chan struct{}

	mu      sync.Mutex
	proc    *process
	state   State
	evals   int
	since   time.Time // start of the running evaluation
	history []string  // inputs of the current worker that defined state
	lost    []string  // inputs that defined state in workers that are gone, not replayed
	// activity is what the running evaluation waits for ("building a
	// compiled input"), "" when it waits for nothing; since when.
	activity      string
	activitySince time.Time
}

// slot returns the selection's slot, creating it on first use.
func (m *Manager) slot(selection string) (*slot, error) {
	name := selection
	if name == "" {
		name = projconf.DefaultSelection
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, fmt.Errorf("evaluate in selection %q: %w", name, ErrClosed)
	}
	if _, ok := m.opts.Selections[name]; !ok {
		return nil, fmt.Errorf("evaluate: no selection %q (have %v): %w", name, m.selectionNames(), errdefs.ErrNotFound)
	}
	s := m.slots[name]
	if s == nil {
		s = &slot{name: name, turn: make(chan struct{}, 1), state: StateStopped}
		m.slots[name] = s
	}
	return s, nil
}

// SetSelections replaces the configured selections, e.g. after
// .trestle.json changed ("default" is kept). A worker already running keeps
// the selection it started with until it is restarted; a selection that is
// gone can no longer be evaluated in. Safe for concurrent use.
func (m *Manager) SetSelections(sels map[string]projconf.Selection) {
	next := map[string]projconf.Selection{projconf.DefaultSelection: {}}
	for name, s := range sels {
		next[name] = s
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.opts.Selections = next
}

// selectionNames lists the configured selections, default first. m.mu is held.
func (m *Manager) selectionNames() []string {
	names := make([]string, 0, len(m.opts.Selections))
	for name := range m.opts.Selections {
		if name != projconf.DefaultSelection {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return append([]string{projconf.DefaultSelection}, names...)
}

// acquire takes the selection's turn, waiting at most BusyWait or ctx.
func (s *slot) acquire(ctx context.Context) error {
	select {
	case s.turn <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(BusyWait)
	defer t.Stop()
	select {
	case s.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
	case <-t.C:
	}
	s.mu.Lock()
	since := time.Since(s.since).Round(time.Millisecond)
	s.mu.Unlock()
	return fmt.Errorf("evaluate in selection %q: another evaluation has been running for %s: %w", s.name, since, errdefs.ErrBusy)
}

func (s *slot) begin(p *process) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == p {
		s.state, s.since = StateRunning, time.Now()
	}
}

// end records an evaluation's outcome; a worker that is gone is dropped
// and closed in the background.
func (m *Manager) end(s *slot, p *process, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc != p { // restarted or closed meanwhile: they closed it
		return
	}
	if err == nil {
		s.state = StateIdle
		s.evals++
		return
	}
	s.lose()
	s.proc, s.state = nil, StateStopped
	if p.killReason() == "" {
		s.state = StateDead
	}
	m.closeLater(p)
}

// closeLater closes p on a goroutine that Close waits for; once Close has
// begun it closes p at once, so that no Add races with Close's Wait.
func (m *Manager) closeLater(p *process) {
	m.mu.Lock()
	closed := m.closed
	if !closed {
		m.reap.Add(1)
	}
	m.mu.Unlock()
	if closed {
		p.close()
		return
	}
	go func() {
		defer m.reap.Done()
		p.close()
	}()
}

// Status describes every configured selection's worker, default first.
func (m *Manager) Status() []WorkerStatus {
	m.mu.Lock()
	names := m.selectionNames()
	slots := make([]*slot, len(names))
	for i, name := range names {
		slots[i] = m.slots[name]
	}
	m.mu.Unlock()
	out := make([]WorkerStatus, len(names))
	for i, name := range names {
		out[i] = WorkerStatus{Selection: name, State: StateStopped}
		if slots[i] != nil {
			out[i] = slots[i].status()
		}
		if m.opts.Native {
			st := m.NativeState(name)
			if slots[i] != nil && st.Ready && !st.Building {
				if left := slots[i].leftOut(); len(left) > 0 { // the worker relinked for an input's imports
					st.LeftOut = left
				}
			}
			out[i].Native = st.Summary()
		}
	}
	return out
}

// leftOut is what the running worker's build left out (a partial build).
func (s *slot) leftOut() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil {
		return nil
	}
	return leftOut(s.proc.skipped)
}

func (s *slot) status() WorkerStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := WorkerStatus{Selection: s.name, State: s.state, Evaluations: s.evals}
	if s.activity != "" {
		st.Activity = fmt.Sprintf("%s for %s", s.activity, time.Since(s.activitySince).Round(time.Second))
	}
	if s.proc != nil {
		st.PID = s.proc.cmd.Process.Pid
		if s.state == StateIdle && s.proc.exited() {
			st.State = StateDead
		}
	}
	return st
}
