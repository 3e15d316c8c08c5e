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
	tasks := s.opts.Services.Tasks
	run := tasks.Last()
	if p.RunID != "" {
		var ok bool
		if run, ok = tasks.Get(p.RunID); !ok {
			return fail(stateNone, "no run %q; runs are kept for the last 20, see trestle_run", p.RunID)
		}
	}
	if run == nil {
		return fail(stateNone, "nothing has run yet; start one with trestle_run")
	}
	if wait == 0 {
		return describeRun(run, tail)
	}
	return awaitRun(ctx, run, wait, tail, newProgress(ctx))
}
