package mcpbridge

import (
	"context"
	"fmt"
	"strings"
	"trestle/app/agent"
	"trestle/app/lsp"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type symbolsParams struct {
	Query string `json:"query" jsonschema:"a name or part of one, matched fuzzily (e.g. Open, DB.Begin, newsq)"`
	Limit int    `json:"limit,omitempty" jsonschema:"most symbols to return (default 50, at most 100: gopls's own cap)"`
}

func (s *Server) symbolsTool() server.ServerTool {
	tool := mcp.NewTool("trestle_symbols",
		mcp.WithDescription("Finds Go declarations by name across the workspace, with kind, path, line and "+
			"container. "+s.goplsHeadline()+`e.g. {"query":"NewServer"}`),
		mcp.WithInputSchema[symbolsParams](),
		hints("Find Go symbols", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.symbols)}
}

func (s *Server) symbols(ctx context.Context, p symbolsParams) *mcp.CallToolResult {
	out, err := s.agent.Symbols(ctx, p.Query, p.Limit)
	if err != nil {
		return failErr(err)
	}
	// The text is the whole answer, sent once (doneText): as structured
	// content too, 50 of bbolt's symbols were 1.8 times the text again.
	syms := out.Symbols
	if len(syms) == 0 {
		return doneText("No Go symbols match %q.", p.Query)
	}
	var b strings.Builder
	verb := "match"
	if len(syms) == 1 {
		verb = "matches"
	}
	fmt.Fprintf(&b, "%s %s %q:\n", plural(len(syms), "symbol"), verb, p.Query)
	for _, sy := range syms {
		b.WriteString(symbolLine(sy))
	}
	switch {
	case out.Found > len(syms):
		fmt.Fprintf(&b, "(gopls found %d, more left off: raise limit, now %d, up to %d, or narrow the query)\n",
			out.Found, out.Limit, agent.GoplsSymbolCap)
	case out.Truncated:
		fmt.Fprintf(&b, "(gopls returns at most %d symbols, so more may match: narrow the query, e.g. with a "+
			"package or type qualifier such as \"bolt.Open\")\n", agent.GoplsSymbolCap)
	}
	return doneText("%s", b.String())
}

// symbolLine is one symbol as agents read it: "db.go:178:6: function Open
// (in go.etcd.io/bbolt)", its last line after a dash when it spans more.
func symbolLine(sy lsp.Symbol) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d", sy.Path, sy.Line, sy.Col)
	if sy.EndLine > sy.Line {
		fmt.Fprintf(&b, "-%d", sy.EndLine)
	}
	fmt.Fprintf(&b, ": %s %s", sy.Kind, sy.Name)
	if sy.Detail != "" {
		fmt.Fprintf(&b, " %s", sy.Detail)
	}
	if sy.Container != "" {
		fmt.Fprintf(&b, " (in %s)", sy.Container)
	}
	b.WriteByte('\n')
	return b.String()
}
