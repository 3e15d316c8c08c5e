package mcpbridge

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/agent"
)

type definitionParams struct {
	Path   string `json:"path" jsonschema:"Go file where the symbol is used or declared"`
	Symbol string `json:"symbol,omitempty" jsonschema:"the name as written in path (Open, shapes.NewSquare, DB.Close, (*DB).Close)"`
	Line   int    `json:"line,omitempty" jsonschema:"1-based line, with column, instead of symbol"`
	Column int    `json:"column,omitempty" jsonschema:"1-based column, in runes"`
}

func (s *Server) definitionTool() server.ServerTool {
	tool := mcp.NewTool("trestle_definition",
		mcp.WithDescription("Where a Go symbol is declared, with the declaration's lines. Name it as written in path, "+
			"or point at it with line and column; declarations outside the project have absolute paths. "+s.goplsHeadline()+
			`e.g. {"path":"main.go","line":12,"column":9}`),
		mcp.WithInputSchema[definitionParams](),
		hints("Go to definition", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.definition)}
}

func (s *Server) definition(ctx context.Context, p definitionParams) *mcp.CallToolResult {
	out, err := s.agent.Definition(ctx, agent.Target{Path: p.Path, Symbol: p.Symbol, Line: p.Line, Column: p.Column})
	if err != nil {
		return failErr(err)
	}
	// The text is the whole answer, sent once (doneText): as structured
	// content too, the declaration's lines were sent twice.
	if len(out.Definitions) == 0 {
		return doneText("No definition found at %s (not an identifier, or a builtin).", out.At)
	}
	var b strings.Builder
	for _, d := range out.Definitions {
		b.WriteString(locText(d))
		if d.EndLine > d.Line {
			fmt.Fprintf(&b, " (lines %d-%d)", d.Line, d.EndLine)
		}
		fmt.Fprintf(&b, ":\n%s\n", d.Text)
	}
	return doneText("%s", b.String())
}
