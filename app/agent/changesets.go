package agent

import (
	"context"
	"errors"
	"time"

	"trestle/app/changeset"
	"trestle/app/errdefs"
)

// Propose stores in as who's proposal, against the text agents read now
// (the window's unsaved editors included), and shows it to the person; it
// applies nothing. A proposal that does not fit that text is ErrInvalid
// and nothing is stored.
func (a *Agent) Propose(ctx context.Context, who Caller, in changeset.Proposal) (changeset.ChangeSet, error) {
	in.Client, in.Session = who.Name(), who.Owner
	cs, err := a.cfg.Services.ChangeSets.Propose(a.reader().Func(ctx), in)
	if err != nil {
		if errors.Is(err, errdefs.ErrInvalid) {
			return cs, errdefs.Errorf(errdefs.ErrInvalid, "%v; nothing was stored", err) // a problem, whatever else it wraps
		}
		return cs, err
	}
	a.changed(cs)
	return cs, nil
}

// Withdraw withdraws who's pending change set id.
func (a *Agent) Withdraw(ctx context.Context, who Caller, id string) (changeset.ChangeSet, error) {
	cs, err := a.cfg.Services.ChangeSets.Withdraw(id, who.Owner)
	if err != nil {
		return cs, err
	}
	a.changed(cs) // the view refreshes as for a proposal
	return cs, nil
}

// ChangeSets lists the project's change sets, newest first; only those in
// state when it is not "".
func (a *Agent) ChangeSets(state string) ([]changeset.ChangeSet, error) {
	return a.cfg.Services.ChangeSets.List(state)
}

// changed tells the window a change set is new or changed.
func (a *Agent) changed(cs changeset.ChangeSet) {
	if act := a.cfg.Activity; act != nil {
		act.ChangeSetProposed(cs)
	}
}

// Bounds of waiting for a decision.
const (
	MaxDecisionWait = 600 // seconds
	// decisionPoll is how often a waiting call looks at the store: the
	// person's decision may come from this window or another process.
	decisionPoll = 500 * time.Millisecond
	// decisionProgress is how often a waiting call tells its caller it is
	// still waiting, when the caller asked for progress.
	decisionProgress = 5 * time.Second
)

// AwaitDecision is change set id read whole (with its bodies and history),
// after waiting up to waitSeconds for the person to decide on it;
// who's progress hears that the wait goes on. A caller that cancels gets
// ErrBusy.
func (a *Agent) AwaitDecision(ctx context.Context, who Caller, id string, waitSeconds int) (changeset.ChangeSet, error) {
	if waitSeconds < 0 || waitSeconds > MaxDecisionWait {
		return changeset.ChangeSet{}, errdefs.Errorf(errdefs.ErrInvalid, "wait_seconds %d is outside 0..%d", waitSeconds, MaxDecisionWait)
	}
	m := a.cfg.Services.ChangeSets
	cs, err := m.Get(id)
	if err != nil {
		return cs, err
	}
	deadline := time.Now().Add(time.Duration(waitSeconds) * time.Second)
	lastNote := time.Now()
	for cs.Undecided() && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return cs, errdefs.Errorf(errdefs.ErrBusy, "stopped waiting for the decision on %s: %v", id, ctx.Err())
		case <-time.After(decisionPoll):
		}
		if cs, err = m.Get(id); err != nil {
			return cs, err
		}
		// No note when the answer follows within a poll: it would land just
		// before the result.
		if who.Progress != nil && cs.Undecided() && time.Since(lastNote) >= decisionProgress && time.Until(deadline) > decisionPoll {
			who.Progress.Note("waiting for the person to review " + id)
			lastNote = time.Now()
		}
	}
	return m.Full(id)
}
