package mcpbridge

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/agent"
)

type referencesParams struct {
	Path               string `json:"path" jsonschema:"Go file where the symbol is used or declared"`
	Symbol             string `json:"symbol,omitempty" jsonschema:"the name as written in path (Open, DB.Close, (*DB).Close)"`
	Line               int    `json:"line,omitempty" jsonschema:"1-based line, with column, instead of symbol"`
	Column             int    `json:"column,omitempty" jsonschema:"1-based column, in runes"`
	IncludeDeclaration bool   `json:"include_declaration,omitempty" jsonschema:"also list the declaration itself"`
	Limit              int    `json:"limit,omitempty" jsonschema:"most references to return (default 200, at most 2000)"`
}

func (s *Server) referencesTool() server.ServerTool {
	tool := mcp.NewTool("trestle_references",
		mcp.WithDescription("Every use of a Go symbol across the workspace, type-checked: path:line:column and the "+
			"line's text. "+s.goplsHeadline()+
			`e.g. {"path":"store.go","symbol":"Store.Get"}`),
		mcp.WithInputSchema[referencesParams](),
		hints("Find references", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.references)}
}

func (s *Server) references(ctx context.Context, p referencesParams) *mcp.CallToolResult {
	t := agent.Target{Path: p.Path, Symbol: p.Symbol, Line: p.Line, Column: p.Column}
	out, err := s.agent.References(ctx, t, p.IncludeDeclaration, p.Limit)
	if err != nil {
		return failErr(err)
	}
	// The text is the whole answer, sent once (doneText): as structured
	// content too, it was 1.6 times the text again.
	if out.Count == 0 {
		return doneText("No references to the symbol at %s.", out.At)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", plural(out.Count, "reference"))
	for _, r := range out.References {
		fmt.Fprintf(&b, "%s: %s\n", locText(r), r.Text)
	}
	if out.Truncated {
		fmt.Fprintf(&b, "(%d more left off: raise limit, now %d, up to 2000)\n", out.Count-len(out.References), len(out.References))
	}
	return doneText("%s", b.String())
}
