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

type symbolsResult struct {
	State     string       `json:"state"`
	Symbols   []lsp.Symbol `json:"symbols"`
	Truncated bool         `json:"truncated"`
}

func (s *Server) symbolsTool() server.ServerTool {
	tool := mcp.NewTool("trestle_symbols",
		mcp.WithDescription("Finds Go declarations by name across the workspace, with kind, path, line and "+
			"container. "+s.goplsHeadline()+`e.g. {"query":"NewServer"}`),
		mcp.WithInputSchema[symbolsParams](),
		results[symbolsResult](),
		hints("Find Go symbols", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.symbols)}
}

func (s *Server) symbols(ctx context.Context, p symbolsParams) *mcp.CallToolResult {
	out, err := s.agent.Symbols(ctx, p.Query, p.Limit)
	if err != nil {
		return failErr(err)
	}
	res := symbolsResult{State: stateDone, Symbols: append([]lsp.Symbol{}, out.Symbols...), Truncated: out.Truncated}
	if len(res.Symbols) == 0 {
		return done(res, "No Go symbols match %q.", p.Query)
	}
	var b strings.Builder
	verb := "match"
	if len(res.Symbols) == 1 {
		verb = "matches"
	}
	fmt.Fprintf(&b, "%s %s %q:\n", plural(len(res.Symbols), "symbol"), verb, p.Query)
	for _, sy := range res.Symbols {
		fmt.Fprintf(&b, "%s:%d:%d: %s %s", sy.Path, sy.Line, sy.Col, sy.Kind, sy.Name)
		if sy.Container != "" {
			fmt.Fprintf(&b, " (in %s)", sy.Container)
		}
		b.WriteByte('\n')
	}
	switch {
	case out.Found > len(res.Symbols):
		fmt.Fprintf(&b, "(more left off: raise limit, now %d, up to %d, or narrow the query)\n", out.Limit, agent.GoplsSymbolCap)
	case res.Truncated:
		fmt.Fprintf(&b, "(gopls returns at most %d symbols, so more may match: narrow the query, e.g. with a "+
			"package or type qualifier such as \"bolt.Open\")\n", agent.GoplsSymbolCap)
	}
	return done(res, "%s", b.String())
}
