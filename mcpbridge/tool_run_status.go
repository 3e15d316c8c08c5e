package mcpbridge

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type runStatusParams struct {
	RunID       string `json:"run_id,omitempty" jsonschema:"the run_id trestle_run returned (default: the latest run)"`
	WaitSeconds int    `json:"wait_seconds,omitempty" jsonschema:"wait up to this long for the run to end (default 0, at most 600; keep it at 25 or less)"`
	TailLines   int    `json:"tail_lines,omitempty" jsonschema:"output lines to return, from the end (default 200)"`
}

func (s *Server) runStatusTool() server.ServerTool {
	tool := mcp.NewTool("trestle_run_status",
		mcp.WithDescription("State, exit code, problems and output of a run, optionally waiting for it to end. "+
			`e.g. {"run_id":"run-3","wait_seconds":25}`),
		mcp.WithInputSchema[runStatusParams](),
		results[runResult](),
		hints("Check a run", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.runStatus)}
}

func (s *Server) runStatus(ctx context.Context, p runStatusParams) *mcp.CallToolResult {
	wait, tail, bad := runBounds(&p.WaitSeconds, p.TailLines)
	if bad != nil {
		return bad
	}
	run, err := s.agent.RunStatus(ctx, s.caller(ctx), p.RunID, wait)
	if err != nil {
		return failErr(err)
	}
	return describeRun(run, tail)
}
