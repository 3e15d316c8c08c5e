//go:build trestle_testhooks

package mcpbridge

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type debugApplyParams struct {
	ID string `json:"id" jsonschema:"the change set to apply as the person would"`
}

// debugApplyTool is a test hook, registered only when the window runs with
// TRESTLE_TEST_HOOKS=1: it presses Apply in the Change Sets pane, so the
// end-to-end tests can drive the person's path without clicking.
func (s *Server) debugApplyTool() server.ServerTool {
	tool := mcp.NewTool("trestle_debug_apply",
		mcp.WithDescription(`Test hook: applies a change set through the window's Change Sets pane. e.g. {"id":"cs-1"}`),
		mcp.WithInputSchema[debugApplyParams](),
		results[stateResult](),
		hints("Apply as the person (test hook)", false, true, false),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.debugApply)}
}

func (s *Server) debugApply(ctx context.Context, p debugApplyParams) *mcp.CallToolResult {
	if err := s.opts.ApplyAsPerson(ctx, p.ID); err != nil {
		return failErr(err)
	}
	return done(stateResult{State: stateDone}, "Pressed Apply on %s.", p.ID)
}
