package mcpbridge

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/permission"
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

// evaluatorRestart drops the person's evaluator state too, so it follows
// the policy as an evaluation does: under deny it is refused, under ask
// the person is asked.
func (s *Server) evaluatorRestart(ctx context.Context, p restartParams) *mcp.CallToolResult {
	sel := selectionOr(p.Selection)
	req := permission.Request{Kind: permission.KindRestart, Selection: sel,
		Detail: "restart the " + sel + " evaluator: its variables, imports and state are lost"}
	if err := s.permit(ctx, req); err != nil {
		return failErr(err)
	}
	if err := s.opts.Services.Eval.Restart(p.Selection); err != nil {
		return failErr(err)
	}
	return done(stateResult{State: stateDone, Selection: selectionOr(p.Selection)},
		"Restarted the %s evaluator; its state is gone.", selectionOr(p.Selection))
}
