package mcpbridge

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/changeset"
)

type proposeParams struct {
	Title       string             `json:"title" jsonschema:"one line saying what the change does"`
	Description string             `json:"description,omitempty" jsonschema:"markdown: why, and what the person should check"`
	Changes     []changeset.Change `json:"changes" jsonschema:"edit needs edits; create and replace need content"`
}

func (s *Server) proposeTool() server.ServerTool {
	tool := mcp.NewTool("trestle_change_set_propose",
		mcp.WithDescription(s.inMode("Proposes a multi-file change for the person to review in the window; it applies nothing. ",
			"Proposes a multi-file change for the person to review; it applies nothing: the person reviews it with "+
				"`trestle changes`. ")+"Read each file first: each edit's old_text must occur once in what trestle_read "+
			s.inMode("returns now (unsaved editor text included). ", "returns now. ")+"Returns the change set id; follow the decision with "+
			`trestle_change_set. e.g. {"title":"Fix off-by-one in Parse",`+
			`"changes":[{"action":"edit","path":"parse.go","edits":[{"old_text":"i <= n","new_text":"i < n"}]}]}`),
		mcp.WithInputSchema[proposeParams](),
		withEnum("changes.action", changeset.ActionEdit, changeset.ActionCreate, changeset.ActionReplace, changeset.ActionDelete),
		results[changeSetResult](),
		hints("Propose a change set", false, false, false),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.propose)}
}

func (s *Server) propose(ctx context.Context, p proposeParams) *mcp.CallToolResult {
	in := changeset.Proposal{Title: p.Title, Description: p.Description, Changes: p.Changes}
	cs, err := s.agent.Propose(ctx, s.caller(ctx), in)
	if err != nil {
		return failErr(err)
	}
	added, removed := cs.Stats()
	return done(summarizeChangeSet(cs), "Proposed %s: %s, +%d -%d. %s; "+
		"call trestle_change_set {\"id\":%q,\"wait_seconds\":25} to learn their decision.\n%s",
		cs.ID, plural(len(cs.Files), "file"), added, removed,
		s.inMode("The person will review it in the window", "The person reviews it with `trestle changes`"), cs.ID,
		describeChangeSet(cs))
}
