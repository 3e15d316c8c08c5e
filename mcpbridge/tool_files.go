package mcpbridge

import (
	"context"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type filesParams struct {
	Under string `json:"under,omitempty" jsonschema:"folder to list (default: the whole project)"`
	Glob  string `json:"glob,omitempty" jsonschema:"path.Match pattern for the relative path or base name, e.g. *.go"`
	Limit int    `json:"limit,omitempty" jsonschema:"most paths to return (default 1000, at most 20000)"`
}

type filesResult struct {
	State     string   `json:"state"`
	Files     []string `json:"files"`
	Truncated bool     `json:"truncated"`
}

func (s *Server) filesTool() server.ServerTool {
	tool := mcp.NewTool("trestle_files",
		mcp.WithDescription("Lists the project's files (relative paths, sorted), skipping .git. "+
			`e.g. {"under":"cmd","glob":"*.go"}`),
		mcp.WithInputSchema[filesParams](),
		results[filesResult](),
		hints("List project files", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.files)}
}

func (s *Server) files(ctx context.Context, p filesParams) *mcp.CallToolResult {
	files, truncated, err := s.agent.Files(ctx, p.Under, p.Glob, p.Limit)
	if err != nil {
		return failErr(err)
	}
	res := filesResult{State: stateDone, Files: files, Truncated: truncated}
	if len(files) == 0 {
		return done(res, "No files matched.")
	}
	more := ""
	if truncated {
		more = "\n(more files were left off; narrow with under or glob, or raise limit)"
	}
	return done(res, "%s%s", strings.Join(files, "\n"), more)
}
