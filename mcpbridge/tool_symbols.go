package mcpbridge

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type symbolsParams struct {
	Query string `json:"query" jsonschema:"a name or part of one, matched fuzzily (e.g. Open, DB.Begin, newsq)"`
	Limit int    `json:"limit,omitempty" jsonschema:"most symbols to return (default 50, at most 100: gopls's own cap)"`
}

// goplsSymbolCap is the most symbols gopls's workspace/symbol returns.
const goplsSymbolCap = 100

type symbolLine struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Container string `json:"container,omitempty"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
}

type symbolsResult struct {
	State     string       `json:"state"`
	Symbols   []symbolLine `json:"symbols"`
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
	if strings.TrimSpace(p.Query) == "" {
		return fail(stateProblem, "query is required, e.g. {\"query\":\"NewServer\"}")
	}
	limit := p.Limit
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, goplsSymbolCap)
	c, ctx, cancel := s.gopls(ctx)
	defer cancel()
	syms, err := c.Symbols(ctx, p.Query)
	if err != nil {
		return goplsFail(err)
	}
	// gopls stops at its cap without saying whether more matched: a full
	// answer is taken as cut.
	res := symbolsResult{State: stateDone, Symbols: []symbolLine{}, Truncated: len(syms) >= goplsSymbolCap}
	for _, sy := range syms {
		if len(res.Symbols) == limit {
			res.Truncated = true
			break
		}
		res.Symbols = append(res.Symbols, symbolLine{Name: sy.Name, Kind: sy.Kind, Container: sy.Container,
			Path: sy.Path, Line: sy.Line, Column: sy.Col})
	}
	if len(res.Symbols) == 0 {
		return done(res, "No Go symbols match %q.", p.Query)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s match %q:\n", plural(len(res.Symbols), "symbol"), p.Query)
	for _, sy := range res.Symbols {
		fmt.Fprintf(&b, "%s:%d:%d: %s %s", sy.Path, sy.Line, sy.Column, sy.Kind, sy.Name)
		if sy.Container != "" {
			fmt.Fprintf(&b, " (in %s)", sy.Container)
		}
		b.WriteByte('\n')
	}
	switch {
	case len(syms) > len(res.Symbols):
		fmt.Fprintf(&b, "(more left off: raise limit, now %d, up to %d, or narrow the query)\n", limit, goplsSymbolCap)
	case res.Truncated:
		fmt.Fprintf(&b, "(gopls returns at most %d symbols, so more may match: narrow the query, e.g. with a "+
			"package or type qualifier such as \"bolt.Open\")\n", goplsSymbolCap)
	}
	return done(res, "%s", b.String())
}
