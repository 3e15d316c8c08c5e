package mcpbridge

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
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
	ID          string `json:"id" jsonschema:"the change set id, e.g. cs-3"`
	WaitSeconds int    `json:"wait_seconds,omitempty" jsonschema:"wait up to this long for the person's decision (default 0, at most 600; keep it at 25 or less)"`
}

func (s *Server) changeSetTool() server.ServerTool {
	tool := mcp.NewTool("trestle_change_set",
		mcp.WithDescription("One change set: its state, each file's and hunk's outcome (the person may apply some "+
			"hunks and reject others, with a reason), the diff of any edit they made to your text before applying, "+
			"and its history. wait_seconds waits for the decision (keep it at 25 or less; ask again to wait more). "+
			`e.g. {"id":"cs-3","wait_seconds":25}`),
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
		// No note when the answer follows within a poll: it would land just
		// before the result.
		if cs.Undecided() && time.Since(lastNote) >= decisionProgress && time.Until(deadline) > decisionPoll {
			prog.Note("waiting for the person to review " + p.ID)
			lastNote = time.Now()
		}
	}
	full, err := m.Full(p.ID)
	if err != nil {
		return failErr(err)
	}
	res := done(detailChangeSet(full), "%s", describeDetail(full))
	if p.WaitSeconds > 0 && full.Undecided() {
		res = withNote(res, fmt.Sprintf("%s is still waiting for the person after %ds; ask again to wait more: trestle_change_set {\"id\":%q,\"wait_seconds\":25}",
			p.ID, p.WaitSeconds, p.ID))
	}
	return res
}
