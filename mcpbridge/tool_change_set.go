package mcpbridge

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/changeset"
)

// Bounds of waiting for a decision.
const (
	maxDecisionWait = 600
	// decisionPoll is how often a waiting call looks at the store: the
	// person's decision may come from this window or another process.
	decisionPoll = 500 * time.Millisecond
	// decisionProgress is how often a waiting call tells its client it is
	// still waiting, when the client asked for progress.
	decisionProgress = 5 * time.Second
)

type changeSetParams struct {
	ID          string `json:"id" jsonschema:"the change set id from trestle_change_set_propose, e.g. cs-3"`
	WaitSeconds int    `json:"wait_seconds,omitempty" jsonschema:"wait up to this long for the person's decision (0: answer at once, at most 600)"`
}

func (s *Server) changeSetTool() server.ServerTool {
	tool := mcp.NewTool("trestle_change_set",
		mcp.WithDescription("One change set: its state (pending, applied, partly_applied, rejected, withdrawn, stale, "+
			"conflict, reverted), each file's state, and the person's decision and reason. With wait_seconds it waits "+
			`for the decision. e.g. {"id":"cs-3","wait_seconds":120}`),
		mcp.WithInputSchema[changeSetParams](),
		results[changeSetResult](),
		hints("Look at a change set", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.changeSet)}
}

func (s *Server) changeSet(ctx context.Context, p changeSetParams) *mcp.CallToolResult {
	if p.WaitSeconds < 0 || p.WaitSeconds > maxDecisionWait {
		return fail(stateProblem, "wait_seconds %d is outside 0..%d", p.WaitSeconds, maxDecisionWait)
	}
	m := s.opts.Services.ChangeSets
	cs, err := m.Get(p.ID)
	if err != nil {
		return failErr(err)
	}
	deadline := time.Now().Add(time.Duration(p.WaitSeconds) * time.Second)
	prog := newProgress(ctx)
	lastNote := time.Now()
	for cs.Undecided() && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return fail(stateBusy, "stopped waiting for the decision on %s: %v", p.ID, ctx.Err())
		case <-time.After(decisionPoll):
		}
		if cs, err = m.Get(p.ID); err != nil {
			return failErr(err)
		}
		if time.Since(lastNote) >= decisionProgress {
			prog.note("waiting for the person to review " + p.ID)
			lastNote = time.Now()
		}
	}
	return done(summarizeChangeSet(cs), "%s", describeChangeSet(cs))
}

type changeSetsParams struct {
	State string `json:"state,omitempty" jsonschema:"only change sets in this state (pending, applied, rejected, ...); empty for all"`
}

// changeSetStates are the states trestle_change_sets filters by.
var changeSetStates = []string{changeset.StatePending, changeset.StateApplied, changeset.StatePartlyApplied,
	changeset.StateRejected, changeset.StateWithdrawn, changeset.StateStale, changeset.StateConflict, changeset.StateReverted}

type changeSetsResult struct {
	State      string            `json:"state"`
	ChangeSets []changeSetResult `json:"change_sets"`
}

func (s *Server) changeSetsTool() server.ServerTool {
	tool := mcp.NewTool("trestle_change_sets",
		mcp.WithDescription("Lists this project's change sets, newest first, optionally by state. "+
			`e.g. {"state":"pending"}`),
		mcp.WithInputSchema[changeSetsParams](),
		withEnum("state", changeSetStates...),
		results[changeSetsResult](),
		hints("List change sets", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.changeSets)}
}

func (s *Server) changeSets(_ context.Context, p changeSetsParams) *mcp.CallToolResult {
	list, err := s.opts.Services.ChangeSets.List(p.State)
	if err != nil {
		return failErr(err)
	}
	res := changeSetsResult{State: stateDone, ChangeSets: []changeSetResult{}}
	text := ""
	for _, cs := range list {
		res.ChangeSets = append(res.ChangeSets, summarizeChangeSet(cs))
		text += describeChangeSet(cs) + "\n"
	}
	if text == "" {
		text = "No change sets."
	}
	return done(res, "%s", text)
}

type withdrawParams struct {
	ID string `json:"id" jsonschema:"the change set id, e.g. cs-3"`
}

func (s *Server) withdrawTool() server.ServerTool {
	tool := mcp.NewTool("trestle_change_set_withdraw",
		mcp.WithDescription("Withdraws a change set you proposed that the person has not decided on yet, e.g. "+
			`before proposing a better one. e.g. {"id":"cs-3"}`),
		mcp.WithInputSchema[withdrawParams](),
		results[changeSetResult](),
		hints("Withdraw a change set", false, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.withdraw)}
}

func (s *Server) withdraw(_ context.Context, p withdrawParams) *mcp.CallToolResult {
	cs, err := s.opts.Services.ChangeSets.Withdraw(p.ID)
	if err != nil {
		return failErr(err)
	}
	if a := s.opts.Activity; a != nil {
		a.ChangeSetProposed(cs) // the view refreshes the same way
	}
	return done(summarizeChangeSet(cs), "Withdrew %s.\n%s", cs.ID, describeChangeSet(cs))
}
