package mcpbridge

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
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
	full, err := s.agent.AwaitDecision(ctx, s.caller(ctx), p.ID, p.WaitSeconds)
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
