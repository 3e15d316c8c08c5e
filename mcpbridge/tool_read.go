package mcpbridge

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/project"
	"trestle/app/workbench"
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
	cp, err := s.projectPath(p.Path)
	if err != nil {
		return failErr(err)
	}
	ft, unsaved, err := s.reader().Read(ctx, cp)
	if err != nil {
		return failErr(err)
	}
	rel := cp.Rel()
	text, err := project.SliceLines(ft.Text, p.StartLine, p.EndLine)
	if err != nil {
		return fail(stateProblem, "read %s: %v", rel, err)
	}
	start, end := max(p.StartLine, 1), p.EndLine
	if end == 0 || end > ft.Lines {
		end = ft.Lines
	}
	res := readResult{Path: rel, Lines: ft.Lines, StartLine: start, EndLine: end, SHA256: ft.SHA256, Unsaved: unsaved}
	return doneText("%s\n%s", readHeader(res), text)
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

// reader reads files as trestle_read does: the window's open editors
// first, else disk.
func (s *Server) reader() workbench.Reader {
	return workbench.Reader{Project: s.opts.Project, Buffers: s.opts.Window} // a nil Window is nil Buffers
}

// readName confines name and reads it as trestle_read does.
func (s *Server) readName(ctx context.Context, name string) (project.FileText, bool, error) {
	cp, err := s.projectPath(name)
	if err != nil {
		return project.FileText{}, false, err
	}
	return s.reader().Read(ctx, cp)
}
