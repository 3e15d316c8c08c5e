package mcpbridge

import (
	"context"
	"fmt"
	"go/token"
	"path/filepath"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/changeset"
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
	rel, bad := s.goFile(p.Path)
	if bad != nil {
		return bad
	}
	if !token.IsIdentifier(p.NewName) {
		return fail(stateProblem, "new_name %q is not a Go identifier", p.NewName)
	}
	c, gctx, cancel := s.gopls(ctx)
	defer cancel()
	at, pos, bad := s.position(gctx, c, rel, p.Symbol, p.Line, p.Column)
	if bad != nil {
		return bad
	}
	if filepath.IsAbs(at) {
		return fail(stateRefused, "%s is declared outside the project (%s); only the project's own names can be renamed", p.Symbol, at)
	}
	edits, err := c.Rename(gctx, at, pos, p.NewName)
	if err != nil {
		return goplsFail(err)
	}
	if len(edits) == 0 {
		return fail(stateNone, "gopls found nothing to rename at %s:%d:%d", at, pos.Line, pos.Col)
	}
	in := changeset.Proposal{Description: p.Description}
	for _, e := range edits {
		if filepath.IsAbs(e.Path) {
			return fail(stateRefused, "the rename would edit %s, outside the project; nothing was proposed", e.Path)
		}
		// gopls computed on the text it was sent; the change set's base is
		// what trestle_read returns. They must be the same text.
		if now, _, err := s.agent.ReadFile(ctx, e.Path); err != nil || now.Text != e.Old {
			return fail(stateProblem, "%s changed while the rename was computed; try again (nothing was proposed)", e.Path)
		}
		in.Changes = append(in.Changes, changeset.Change{Path: e.Path, Action: changeset.ActionReplace, Content: e.New})
	}
	name := p.Symbol
	if name == "" {
		name = fmt.Sprintf("the symbol at %s:%d:%d", rel, pos.Line, pos.Col)
	}
	in.Title = fmt.Sprintf("Rename %s to %s", name, p.NewName)
	cs, err := s.agent.Propose(ctx, s.caller(ctx), in)
	if err != nil {
		return failErr(err)
	}
	added, removed := cs.Stats()
	return done(summarizeChangeSet(cs), "Proposed %s (%q): %s, +%d -%d. Nothing is renamed until the person "+
		"applies it; call trestle_change_set {\"id\":%q,\"wait_seconds\":120} to learn their decision.",
		cs.ID, cs.Title, plural(len(cs.Files), "file"), added, removed, cs.ID)
}
