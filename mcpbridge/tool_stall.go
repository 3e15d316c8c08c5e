//go:build trestle_testhooks

package mcpbridge

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type stallParams struct {
	Millis int `json:"millis" jsonschema:"how long to block the UI thread, in milliseconds (at most 10000)"`
}

// stallTool is a test hook, registered only when the window runs with
// TRESTLE_TEST_HOOKS=1: it blocks the UI thread so that end-to-end tests can
// see a bounded call answer busy.
func (s *Server) stallTool() server.ServerTool {
	tool := mcp.NewTool("trestle_debug_stall",
		mcp.WithDescription(`Test hook: blocks the window's UI thread. e.g. {"millis":3000}`),
		mcp.WithInputSchema[stallParams](),
		results[stateResult](),
		hints("Stall the UI (test hook)", false, false, false),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.stall)}
}

func (s *Server) stall(_ context.Context, p stallParams) *mcp.CallToolResult {
	if p.Millis <= 0 || p.Millis > 10000 {
		return fail(stateProblem, "millis %d is outside 1..10000", p.Millis)
	}
	s.opts.Stall(time.Duration(p.Millis) * time.Millisecond)
	return done(stateResult{State: stateDone}, "The UI thread is blocked for %d ms.", p.Millis)
}
