package mcpbridge

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/changeset"
	"trestle/app/errdefs"
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
	in := changeset.Proposal{Title: p.Title, Description: p.Description, Client: clientName(ctx), Changes: p.Changes}
	cs, failed := s.storeProposal(ctx, in)
	if failed != nil {
		return failed
	}
	added, removed := cs.Stats()
	return done(summarizeChangeSet(cs), "Proposed %s: %s, +%d -%d. %s; "+
		"call trestle_change_set {\"id\":%q,\"wait_seconds\":120} to learn their decision.\n%s",
		cs.ID, plural(len(cs.Files), "file"), added, removed,
		s.inMode("The person will review it in the window", "The person reviews it with `trestle changes`"), cs.ID,
		describeChangeSet(cs))
}

// storeProposal proposes in against what trestle_read returns and tells the window
// (trestle_propose_change_set and trestle_rename both end here); a failure
// comes back as the tool result to return.
func (s *Server) storeProposal(ctx context.Context, in changeset.Proposal) (changeset.ChangeSet, *mcp.CallToolResult) {
	in.Session = sessionOwner(ctx)
	cs, err := s.opts.Services.ChangeSets.Propose(s.reader().Func(ctx), in)
	if err != nil {
		if errors.Is(err, errdefs.ErrInvalid) {
			return cs, fail(stateProblem, "%v; nothing was stored", err)
		}
		return cs, failErr(err)
	}
	if a := s.opts.Activity; a != nil {
		a.ChangeSetProposed(cs)
	}
	return cs, nil
}
