package mcpbridge

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type openParams struct {
	Path      string `json:"path" jsonschema:"file path relative to the project root"`
	Line      int    `json:"line,omitempty" jsonschema:"line to show, 1-based"`
	Column    int    `json:"column,omitempty" jsonschema:"with end_line: the first column selected (default 1)"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"select from line:column to end_line:end_column"`
	EndColumn int    `json:"end_column,omitempty" jsonschema:"with end_line: the column just past the selection (default 1)"`
}

type openResult struct {
	State string `json:"state"`
	Path  string `json:"path"`
	Line  int    `json:"line,omitempty"`
}

func (s *Server) openTool() server.ServerTool {
	tool := mcp.NewTool("trestle_open",
		mcp.WithDescription("Opens a file in the person's window (or focuses its tab) at a line, optionally "+
			"selecting a range, to point the person at something. "+`e.g. {"path":"main.go","line":3,"end_line":5}`),
		mcp.WithInputSchema[openParams](),
		results[openResult](),
		hints("Open a file in the window", false, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.open)}
}

func (s *Server) open(ctx context.Context, p openParams) *mcp.CallToolResult {
	path, err := s.agent.Open(ctx, p.Path, p.Line, p.Column, p.EndLine, p.EndColumn)
	if err != nil {
		return failErr(err)
	}
	rel, at := path.Rel(), ""
	if p.Line > 0 {
		at = fmt.Sprintf(" at line %d", p.Line)
	}
	return done(openResult{State: stateDone, Path: rel, Line: p.Line}, "Opened %s%s in the window.", rel, at)
}
