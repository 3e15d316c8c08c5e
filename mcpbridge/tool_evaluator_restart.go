package mcpbridge

import (
	"context"
	"trestle/app/agent"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type restartParams struct {
	Selection string `json:"selection,omitempty" jsonschema:"the selection whose evaluator to restart (default: default)"`
}

func (s *Server) evaluatorRestartTool() server.ServerTool {
	tool := mcp.NewTool("trestle_evaluator_restart",
		mcp.WithDescription("Restarts a selection's evaluator, dropping its state, e.g. after the project's code "+
			`changed. e.g. {"selection":"default"}`),
		mcp.WithInputSchema[restartParams](),
		results[stateResult](),
		hints("Restart an evaluator", false, true, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.evaluatorRestart)}
}

// evaluatorRestart follows the policy as an evaluation does (see
// agent.RestartEvaluator).
func (s *Server) evaluatorRestart(ctx context.Context, p restartParams) *mcp.CallToolResult {
	if err := s.agent.RestartEvaluator(ctx, s.caller(ctx), p.Selection); err != nil {
		return failErr(err)
	}
	return done(stateResult{State: stateDone, Selection: agent.SelectionOr(p.Selection)},
		"Restarted the %s evaluator; its state is gone.", agent.SelectionOr(p.Selection))
}
