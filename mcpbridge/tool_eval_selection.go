package mcpbridge

import (
	"context"

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
	sel, err := s.opts.Window.Selection(ctx)
	if err != nil {
		return failErr(err)
	}
	if sel.Text == "" {
		return fail(stateNone, "nothing is selected in %s; ask the person to select the code, or use trestle_eval", sel.Path)
	}
	return s.eval(ctx, evalParams{Code: sel.Text, Selection: p.Selection, TimeoutSeconds: p.TimeoutSeconds})
}
