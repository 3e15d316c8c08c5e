package mcpbridge

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/search"
)

type searchParams struct {
	Pattern    string `json:"pattern" jsonschema:"text to find, or a Go regular expression when regexp is true"`
	Regexp     bool   `json:"regexp,omitempty" jsonschema:"pattern is a Go (RE2) regular expression"`
	IgnoreCase bool   `json:"ignore_case,omitempty" jsonschema:"match without regard to case"`
	Glob       string `json:"glob,omitempty" jsonschema:"path.Match pattern for the relative path or base name, e.g. *.go"`
	Limit      int    `json:"limit,omitempty" jsonschema:"most matches to return (default 200, at most 5000)"`
}

func (s *Server) searchTool() server.ServerTool {
	tool := mcp.NewTool("trestle_search",
		mcp.WithDescription("Searches the project's files (not .git, gitignored or binary ones) for text or a "+
			"regexp: path:line:column and the line's text per match. "+
			`e.g. {"pattern":"func New","glob":"*.go"}`),
		mcp.WithInputSchema[searchParams](),
		hints("Search the project", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.search)}
}

func (s *Server) search(ctx context.Context, p searchParams) *mcp.CallToolResult {
	q := search.Query{Pattern: p.Pattern, Regexp: p.Regexp, IgnoreCase: p.IgnoreCase, Glob: p.Glob, Limit: p.Limit}
	res, err := s.agent.Search(ctx, q)
	if err != nil {
		return failErr(err)
	}
	if len(res.Matches) == 0 {
		return doneText("No matches in %s.", plural(res.Files, "file"))
	}
	var b strings.Builder
	for _, m := range res.Matches {
		fmt.Fprintf(&b, "%s:%d:%d: %s\n", m.Path, m.Line, m.Column, m.Text)
	}
	if res.Truncated {
		fmt.Fprintf(&b, "(more matches were left off at %d; narrow the pattern or glob, or raise limit)\n", len(res.Matches))
	}
	return doneText("%s", b.String())
}
