package eval

import (
	"context"
	"fmt"
	"slices"
	"time"
	"trestle/app/errdefs"
)

// The inputs that defined state in a worker that is gone, and replaying them.

// Replay evaluates, in order, the inputs that defined state in the
// selection's workers that died or were killed (Result.Lost), so that a
// fresh worker has that state again. It stops at the first input that
// fails; the inputs not replayed stay for a later Replay. timeout is per
// input, as for Eval. each, if not nil, hears every input as it is
// evaluated (the Eval pane shows them; trestle_eval's replay names them).
// It is the one replay of the evaluator: the pane's Replay action, its
// menu item and trestle_eval's replay argument all call it.
func (m *Manager) Replay(ctx context.Context, selection string, timeout time.Duration, each func(code string, res Result, err error)) ([]Result, error) {
	return m.replay(ctx, selection, nil, timeout, each)
}

// ReplayExactly is Replay when the inputs to replay are still want (what
// the person was shown and allowed); otherwise it runs nothing and says
// that they changed.
func (m *Manager) ReplayExactly(ctx context.Context, selection string, want []string, timeout time.Duration, each func(code string, res Result, err error)) ([]Result, error) {
	if want == nil {
		want = []string{}
	}
	return m.replay(ctx, selection, want, timeout, each)
}

// replay is Replay, checking the inputs against want unless want is nil.
func (m *Manager) replay(ctx context.Context, selection string, want []string, timeout time.Duration, each func(code string, res Result, err error)) ([]Result, error) {
	s, err := m.slot(selection)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	inputs := s.lost
	if want != nil && !slices.Equal(inputs, want) {
		s.mu.Unlock()
		return nil, fmt.Errorf("replay in selection %q: the inputs to replay changed since they were shown (%d now, %d shown); ask again: %w", s.name, len(inputs), len(want), errdefs.ErrBusy)
	}
	s.lost = nil
	s.mu.Unlock()
	var out []Result
	for i, code := range inputs {
		res, err := m.Eval(ctx, selection, code, timeout)
		out = append(out, res)
		if each != nil {
			each(code, res, err)
		}
		if err != nil || res.Err != "" {
			s.mu.Lock()
			s.lost = append(slices.Clone(inputs[i+1:]), s.lost...)
			s.mu.Unlock()
			if err == nil {
				err = fmt.Errorf("replay in selection %q: input %d of %d failed: %s", s.name, i+1, len(inputs), res.Err)
			} else {
				err = fmt.Errorf("replay in selection %q: input %d of %d: %w", s.name, i+1, len(inputs), err)
			}
			return out, err
		}
	}
	return out, nil
}

// Lost returns the inputs that Replay would evaluate in the selection, in
// order (nil for an unknown selection). Safe for concurrent use.
func (m *Manager) Lost(selection string) []string {
	s, err := m.slot(selection)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.lost)
}

// lose moves the current worker's state-defining inputs to lost. s.mu is held.
func (s *slot) lose() {
	s.lost = append(s.lost, s.history...)
	s.history = nil
}

// keepLost adds inputs that defined state in a worker that is gone, and
// that no worker replayed, to what Replay runs.
func (s *slot) keepLost(inputs []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lost = append(s.lost, inputs...)
}

// retire takes p out of the selection's slot and kills it, and returns
// the inputs that defined state in it, for the worker that takes over
// (takeOver). The old worker goes first, so that nothing it holds (a file
// lock) blocks those inputs when they run again.
func (m *Manager) retire(s *slot, p *process) []string {
	s.mu.Lock()
	history := s.history
	if s.proc == p {
		s.proc, s.state, s.history = nil, StateStopped, nil
	}
	s.mu.Unlock()
	p.kill(reasonRestarted)
	m.closeLater(p)
	return history
}

// takeOver makes next the selection's worker once the inputs that defined
// state in the one it replaces ran again in it, in order; the notes say
// how that went. Inputs it could not replay (it died) stay for Replay.
func (m *Manager) takeOver(ctx context.Context, s *slot, next *process, history []string) []string {
	kept, notes := replayInto(ctx, next, history)
	if len(history) > 0 && kept != nil {
		notes = append(notes, fmt.Sprintf("the %d earlier input(s) that defined state ran again in it", len(history)))
	}
	s.mu.Lock()
	s.proc, s.state, s.evals, s.history = next, StateIdle, 0, kept
	if kept == nil {
		s.lost = append(s.lost, history...) // it died replaying them: Replay may try again
	}
	s.mu.Unlock()
	return notes
}

// replayInto runs history in a fresh worker, in order, and returns the
// inputs that defined state there; nil when the worker died.
func replayInto(ctx context.Context, p *process, history []string) ([]string, []string) {
	kept := []string{}
	var notes []string
	for i, code := range history {
		r, err := p.eval(ctx, code, DefaultTimeout)
		if err != nil {
			p.kill(reasonCancelled)
			return nil, []string{fmt.Sprintf("the new evaluator died while earlier input %d of %d ran again in it (%v); Replay runs them again", i+1, len(history), err)}
		}
		if r.Error != "" {
			notes = append(notes, fmt.Sprintf("earlier input %d of %d failed when it ran again: %s", i+1, len(history), r.Error))
			continue
		}
		kept = append(kept, code)
	}
	return kept, notes
}
