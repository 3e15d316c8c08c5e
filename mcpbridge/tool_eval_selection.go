package mcpbridge

import (
	"context"
	"trestle/app/agent"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type evalSelectionParams struct {
	Selection      string `json:"selection,omitempty" jsonschema:"the .trestle.json selection (default: default)"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" jsonschema:"deadline in seconds (default 10, at most 60)"`
}

func (s *Server) evalSelectionTool() server.ServerTool {
	tool := mcp.NewTool("trestle_eval_selection",
		mcp.WithDescription("Evaluates the Go the person has selected in the active editor, as trestle_eval does; "+
			`"none" when nothing is selected. e.g. {}`),
		mcp.WithInputSchema[evalSelectionParams](),
		results[evalResult](),
		runsCode("Evaluate the person's selection", true, false),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.evalSelection)}
}

func (s *Server) evalSelection(ctx context.Context, p evalSelectionParams) *mcp.CallToolResult {
	out, err := s.agent.EvalSelection(ctx, s.caller(ctx), agent.EvalInput{Selection: p.Selection, TimeoutSeconds: p.TimeoutSeconds})
	return s.evalAnswered(out, err)
}
