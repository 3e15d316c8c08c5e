package mcpbridge

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/agent"
)

type renameParams struct {
	Path        string `json:"path" jsonschema:"Go file where the symbol is used or declared"`
	Symbol      string `json:"symbol,omitempty" jsonschema:"the name as written in path (Open, DB.Close, (*DB).Close)"`
	Line        int    `json:"line,omitempty" jsonschema:"1-based line, with column, instead of symbol"`
	Column      int    `json:"column,omitempty" jsonschema:"1-based column, in runes"`
	NewName     string `json:"new_name" jsonschema:"the new identifier"`
	Description string `json:"description,omitempty" jsonschema:"markdown for the person: why the rename"`
}

func (s *Server) renameTool() server.ServerTool {
	tool := mcp.NewTool("trestle_rename",
		mcp.WithDescription("Renames a Go symbol everywhere it is used and PROPOSES the result as a change set "+
			"for the person to review; it applies nothing. "+
			"Returns the change set id; follow it with trestle_change_set. "+s.goplsHeadline()+
			`e.g. {"path":"store.go","symbol":"Store.Get","new_name":"Lookup"}`),
		mcp.WithInputSchema[renameParams](),
		results[changeSetResult](),
		hints("Propose a rename", false, false, false),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.rename)}
}

func (s *Server) rename(ctx context.Context, p renameParams) *mcp.CallToolResult {
	cs, err := s.agent.Rename(ctx, s.caller(ctx), agent.RenameInput{
		Target:  agent.Target{Path: p.Path, Symbol: p.Symbol, Line: p.Line, Column: p.Column},
		NewName: p.NewName, Description: p.Description,
	})
	if err != nil {
		return failErr(err)
	}
	added, removed := cs.Stats()
	return done(summarizeChangeSet(cs), "Proposed %s (%q): %s, +%d -%d. Nothing is renamed until the person "+
		"applies it; call trestle_change_set {\"id\":%q,\"wait_seconds\":25} to learn their decision.",
		cs.ID, cs.Title, plural(len(cs.Files), "file"), added, removed, cs.ID)
}
