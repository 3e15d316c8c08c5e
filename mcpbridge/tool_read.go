package mcpbridge

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type readParams struct {
	Path      string `json:"path" jsonschema:"file path relative to the project root"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"first line to return, 1-based (default 1)"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line to return, inclusive (default: the last line)"`
}

// readResult is what trestle_read's header line says about the text that
// follows it.
type readResult struct {
	Path      string
	Lines     int
	StartLine int
	EndLine   int
	SHA256    string
	Unsaved   bool
}

func (s *Server) readTool() server.ServerTool {
	tool := mcp.NewTool("trestle_read",
		mcp.WithDescription(s.inMode("Reads a project file as the person sees it (unsaved editor text included, "+
			"flagged), ", "Reads a project file, ")+"with its line count and the sha256 of the whole text. "+`e.g. {"path":"cmd/main.go","start_line":10,"end_line":40}`),
		mcp.WithInputSchema[readParams](),
		hints("Read a file", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.read)}
}

func (s *Server) read(ctx context.Context, p readParams) *mcp.CallToolResult {
	out, err := s.agent.Read(ctx, p.Path, p.StartLine, p.EndLine)
	if err != nil {
		return failErr(err)
	}
	res := readResult{Path: out.Path, Lines: out.Lines, StartLine: out.StartLine, EndLine: out.EndLine, SHA256: out.SHA256, Unsaved: out.Unsaved}
	return doneText("%s\n%s", readHeader(res), out.Text)
}

// readHeader is the first line of trestle_read's answer, before the text:
// the path, the lines returned, the file's line count, whether it is the
// editor's unsaved text, and the sha256 of the whole file.
func readHeader(r readResult) string {
	unsaved := ""
	if r.Unsaved {
		unsaved = ", unsaved editor text"
	}
	return fmt.Sprintf("%s lines %d-%d of %d%s, sha256 %s:", r.Path, r.StartLine, r.EndLine, r.Lines, unsaved, r.SHA256)
}
