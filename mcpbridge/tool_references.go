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

type referencesResult struct {
	State      string         `json:"state"`
	References []locationLine `json:"references"`
	Count      int            `json:"count"`
	Truncated  bool           `json:"truncated"`
}

func (s *Server) referencesTool() server.ServerTool {
	tool := mcp.NewTool("trestle_references",
		mcp.WithDescription("Every use of a Go symbol across the workspace, type-checked: path:line:column and the "+
			"line's text. "+s.goplsHeadline()+
			`e.g. {"path":"store.go","symbol":"Store.Get"}`),
		mcp.WithInputSchema[referencesParams](),
		results[referencesResult](),
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
	res := referencesResult{State: stateDone, References: []locationLine{}, Count: out.Count, Truncated: out.Truncated}
	for _, r := range out.References {
		res.References = append(res.References, locationOf(r))
	}
	if res.Count == 0 {
		return done(res, "No references to the symbol at %s.", out.At)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", plural(res.Count, "reference"))
	for _, r := range res.References {
		fmt.Fprintf(&b, "%s: %s\n", r, r.Text)
	}
	if res.Truncated {
		b.WriteString("(more left off; raise limit)\n")
	}
	return done(res, "%s", b.String())
}
