package mcpbridge

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type openParams struct {
	Path string `json:"path" jsonschema:"file path relative to the project root"`
	Line int    `json:"line,omitempty" jsonschema:"line to show, 1-based (default: leave the caret where it is)"`
}

type openResult struct {
	State string `json:"state"`
	Path  string `json:"path"`
	Line  int    `json:"line,omitempty"`
}

func (s *Server) openTool() server.ServerTool {
	tool := mcp.NewTool("trestle_open",
		mcp.WithDescription("Opens a file in the person's window, or focuses its tab, and shows the line. "+
			"Use it to point the person at something. "+`e.g. {"path":"app/project.go","line":42}`),
		mcp.WithInputSchema[openParams](),
		hints("Open a file in the window", false, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.open)}
}

func (s *Server) open(ctx context.Context, p openParams) *mcp.CallToolResult {
	rel, err := s.projectRel(p.Path)
	if err != nil {
		return failErr(err)
	}
	if p.Line < 0 {
		return fail(stateProblem, "line %d is negative; lines start at 1", p.Line)
	}
	if err := s.opts.Window.Open(ctx, rel, p.Line); err != nil {
		return failErr(err)
	}
	at := ""
	if p.Line > 0 {
		at = fmt.Sprintf(" at line %d", p.Line)
	}
	return done(openResult{State: stateDone, Path: rel, Line: p.Line}, "Opened %s%s in the window.", rel, at)
}
