package mcpbridge

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type stopParams struct {
	What      string `json:"what" jsonschema:"run (the running task) or eval (the running evaluation)"`
	Selection string `json:"selection,omitempty" jsonschema:"for eval: the selection whose evaluation to stop (default: default)"`
}

func (s *Server) stopTool() server.ServerTool {
	tool := mcp.NewTool("trestle_stop",
		mcp.WithDescription("Stops the running task (its whole process group) or the running evaluation (its "+
			`evaluator restarts, state lost). e.g. {"what":"run"}`),
		mcp.WithInputSchema[stopParams](),
		withEnum("what", "run", "eval"),
		results[stateResult](),
		hints("Stop a run or evaluation", false, true, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.stop)}
}

func (s *Server) stop(ctx context.Context, p stopParams) *mcp.CallToolResult {
	switch p.What {
	case "run":
		run, err := s.agent.StopRun(ctx, s.caller(ctx))
		if err != nil {
			return failErr(err)
		}
		return done(stateResult{State: stateDone, RunID: run.ID}, "Stopped %s (%s).", run.ID, run.Task.Name)
	case "eval":
		if err := s.agent.StopEval(ctx, s.caller(ctx), p.Selection); err != nil {
			return failErr(err) // nothing running is "none"
		}
		return done(stateResult{State: stateDone}, "Stopped the evaluation; the evaluator starts fresh on the next call.")
	}
	return fail(stateProblem, "what is %q; use \"run\" or \"eval\"", p.What)
}
