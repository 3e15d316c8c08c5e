package mcpbridge

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/lsp"
)

type definitionParams struct {
	Path   string `json:"path" jsonschema:"Go file where the symbol is used or declared"`
	Symbol string `json:"symbol,omitempty" jsonschema:"the name as written in path (Open, shapes.NewSquare, DB.Close, (*DB).Close)"`
	Line   int    `json:"line,omitempty" jsonschema:"1-based line, with column, instead of symbol"`
	Column int    `json:"column,omitempty" jsonschema:"1-based column, in runes"`
}

type definitionResult struct {
	State       string         `json:"state"`
	Definitions []locationLine `json:"definitions"`
}

func (s *Server) definitionTool() server.ServerTool {
	tool := mcp.NewTool("trestle_definition",
		mcp.WithDescription("Where a Go symbol is declared, with the declaration's lines. Name it as written in path, "+
			"or point at it with line and column; declarations outside the project have absolute paths. "+s.goplsHeadline()+
			`e.g. {"path":"main.go","line":12,"column":9}`),
		mcp.WithInputSchema[definitionParams](),
		results[definitionResult](),
		hints("Go to definition", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.definition)}
}

func (s *Server) definition(ctx context.Context, p definitionParams) *mcp.CallToolResult {
	rel, bad := s.goFile(p.Path)
	if bad != nil {
		return bad
	}
	c, ctx, cancel := s.gopls(ctx)
	defer cancel()
	at, pos, bad := s.position(ctx, c, rel, p.Symbol, p.Line, p.Column)
	if bad != nil {
		return bad
	}
	locs, err := c.Definition(ctx, at, pos)
	if err != nil {
		return goplsFail(err)
	}
	res := definitionResult{State: stateDone, Definitions: []locationLine{}}
	for _, l := range locs {
		res.Definitions = append(res.Definitions, s.declaration(ctx, c, l))
	}
	if len(res.Definitions) == 0 {
		return done(res, "No definition found at %s:%d:%d (not an identifier, or a builtin).", at, pos.Line, pos.Col)
	}
	var b strings.Builder
	for _, d := range res.Definitions {
		fmt.Fprintf(&b, "%s:\n%s\n", d, d.Text)
	}
	return done(res, "%s", b.String())
}

// declaration is l with the lines of the declaration it names: the
// outline entry that starts there, else the line alone.
func (s *Server) declaration(ctx context.Context, c *lsp.Client, l lsp.Location) locationLine {
	d := locationLine{Path: l.Path, Line: l.Range.Start.Line, Column: l.Range.Start.Col, EndLine: l.Range.Start.Line}
	if syms, err := c.DocumentSymbols(ctx, l.Path); err == nil {
		for _, sy := range syms {
			if sy.Line == d.Line && sy.Col == d.Column && sy.EndLine >= d.Line {
				d.EndLine = min(sy.EndLine, d.Line+maxDeclLines-1)
				break
			}
		}
	}
	d.Text, _ = s.sourceLines(ctx, l.Path, d.Line, d.EndLine)
	return d
}
