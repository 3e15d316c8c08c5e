package mcpbridge

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/workbench"
)

type selectionParams struct{}

type selectionResult struct {
	State string `json:"state"`
	workbench.EditorSelection
}

func (s *Server) selectionTool() server.ServerTool {
	tool := mcp.NewTool("trestle_selection",
		mcp.WithDescription("The active editor's file, the text the person has selected and its range (1-based "+
			"lines, columns in characters); with nothing selected the range is the caret. "+
			"Use it when the person says \"this\". e.g. {}"),
		mcp.WithInputSchema[selectionParams](),
		results[selectionResult](),
		hints("Read the person's selection", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.selection)}
}

func (s *Server) selection(ctx context.Context, _ selectionParams) *mcp.CallToolResult {
	sel, err := s.opts.Window.Selection(ctx)
	if err != nil {
		return failErr(err)
	}
	res := selectionResult{State: stateDone, EditorSelection: sel}
	where := fmt.Sprintf("%s:%d:%d-%d:%d", sel.Path, sel.StartLine, sel.StartCol, sel.EndLine, sel.EndCol)
	if sel.Text == "" {
		return done(res, "Nothing is selected; the caret is at %s:%d:%d.", sel.Path, sel.StartLine, sel.StartCol)
	}
	return done(res, "%s\n%s", where, sel.Text)
}

type evalSelectionParams struct {
	Selection      string `json:"selection,omitempty" jsonschema:"the .trestle.json selection whose evaluator to use (default: default)"`
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
