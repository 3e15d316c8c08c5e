package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/changeset"
	"trestle/app/errdefs"
)

type proposeParams struct {
	Title       string             `json:"title" jsonschema:"one line saying what the change does"`
	Description string             `json:"description,omitempty" jsonschema:"markdown: why, and what the person should check"`
	Changes     []changeset.Change `json:"changes" jsonschema:"file changes; action edit needs path and edits (each old_text must occur exactly once in the file as trestle_read returns it), create and replace need path and content, delete needs path"`
}

type fileSummary struct {
	Path    string `json:"path"`
	Action  string `json:"action"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	State   string `json:"state"`
	Detail  string `json:"detail,omitempty"`
}

type changeSetResult struct {
	State     string        `json:"state"`
	ID        string        `json:"id"`
	Title     string        `json:"title"`
	Client    string        `json:"client,omitempty"`
	SetState  string        `json:"change_set_state"`
	Reason    string        `json:"reason,omitempty"`
	Created   string        `json:"created"`
	Decided   string        `json:"decided,omitempty"`
	Files     []fileSummary `json:"files"`
	Undecided bool          `json:"undecided"`
}

func (s *Server) proposeTool() server.ServerTool {
	tool := mcp.NewTool("trestle_change_set_propose",
		mcp.WithDescription(s.inMode("Proposes a multi-file change for the person to review in the window; it applies nothing. ",
			"Proposes a multi-file change for the person to review; it applies nothing: the person reviews it with "+
				"`trestle changes`. ")+"Read each file first: edits are exact old_text -> new_text replacements checked against what trestle_read "+
			s.inMode("returns now (unsaved editor text included). ", "returns now. ")+"Returns the change set id; follow the decision with "+
			`trestle_change_set {"id":...,"wait_seconds":120}. e.g. {"title":"Fix off-by-one in Parse",`+
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
	cs, err := s.opts.Services.ChangeSets.Propose(s.reader().Func(ctx), in)
	if err != nil {
		if errors.Is(err, errdefs.ErrInvalid) {
			return fail(stateProblem, "%v; nothing was stored", err)
		}
		return failErr(err)
	}
	if a := s.opts.Activity; a != nil {
		a.ChangeSetProposed(cs)
	}
	added, removed := cs.Stats()
	return done(summarizeChangeSet(cs), "Proposed %s: %d files, +%d -%d. %s; "+
		"call trestle_change_set {\"id\":%q,\"wait_seconds\":120} to learn their decision.\n%s",
		cs.ID, len(cs.Files), added, removed,
		s.inMode("The person will review it in the window", "The person reviews it with `trestle changes`"), cs.ID,
		describeChangeSet(cs))
}

func summarizeChangeSet(cs changeset.ChangeSet) changeSetResult {
	r := changeSetResult{State: stateDone, ID: cs.ID, Title: cs.Title, Client: cs.Client, SetState: cs.State,
		Reason: cs.Reason, Created: cs.Created.Format("2006-01-02T15:04:05Z07:00"), Files: []fileSummary{},
		Undecided: cs.Undecided()}
	if !cs.Decided.IsZero() {
		r.Decided = cs.Decided.Format("2006-01-02T15:04:05Z07:00")
	}
	for _, f := range cs.Files {
		r.Files = append(r.Files, fileSummary{Path: f.Path, Action: f.Action, Added: f.Added, Removed: f.Removed,
			State: fileState(cs, f), Detail: f.Detail})
	}
	return r
}

// fileState is a file's state as agents are told it: the files of a
// withdrawn or rejected set that were never applied share the set's state
// (the store keeps them as they were when it was decided).
func fileState(cs changeset.ChangeSet, f changeset.FileChange) string {
	undecided := f.State == changeset.StatePending || f.State == changeset.StateStale || f.State == changeset.StateConflict
	if undecided && (cs.State == changeset.StateWithdrawn || cs.State == changeset.StateRejected) {
		return cs.State
	}
	return f.State
}

func describeChangeSet(cs changeset.ChangeSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %q by %s: %s", cs.ID, cs.Title, cs.Client, cs.State)
	if cs.Reason != "" {
		fmt.Fprintf(&b, " (reason: %s)", cs.Reason)
	}
	for _, f := range cs.Files {
		fmt.Fprintf(&b, "\n  %s %s +%d -%d: %s", f.Action, f.Path, f.Added, f.Removed, fileState(cs, f))
		if f.Detail != "" {
			fmt.Fprintf(&b, " (%s)", f.Detail)
		}
	}
	return b.String()
}
