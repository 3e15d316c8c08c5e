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
		mcp.WithDescription("The active editor's file, the person's selected text and its range (1-based, columns "+
			"in characters; the caret when nothing is selected). "+
			"Use it when the person says \"this\". e.g. {}"),
		mcp.WithInputSchema[selectionParams](),
		results[selectionResult](),
		hints("Read the person's selection", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.selection)}
}

func (s *Server) selection(ctx context.Context, _ selectionParams) *mcp.CallToolResult {
	sel, err := s.agent.Selection(ctx)
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
