package mcpbridge

import (
	"fmt"
	"strings"

	"trestle/app/changeset"
)

// What the change-set tools return about a set: the same structure from
// propose, list, look and withdraw, with the history, the hunks' line
// ranges and the person's edits only where the set was read whole (see
// detailChangeSet).

type hunkSummary struct {
	N        int    `json:"n" jsonschema:"the hunk's number within its file, from 1"`
	State    string `json:"state" jsonschema:"pending, applied, rejected, conflict (it did not apply to the file as it was, so it was not forced), reverted or withdrawn"`
	Detail   string `json:"detail,omitempty"`
	OldStart int    `json:"old_start,omitempty" jsonschema:"first line of the file before the change that the hunk covers"`
	OldLines int    `json:"old_lines,omitempty"`
	NewStart int    `json:"new_start,omitempty" jsonschema:"first line it covers in the proposed text"`
	NewLines int    `json:"new_lines,omitempty"`
	Added    int    `json:"added,omitempty"`
	Removed  int    `json:"removed,omitempty"`
}

type fileSummary struct {
	Path           string        `json:"path"`
	Action         string        `json:"action"`
	Added          int           `json:"added"`
	Removed        int           `json:"removed"`
	State          string        `json:"state" jsonschema:"pending, applied, partly_applied (some hunks), rejected, conflict, stale, reverted or withdrawn"`
	Detail         string        `json:"detail,omitempty"`
	Reason         string        `json:"reason,omitempty" jsonschema:"the person's, when they rejected this file or some of its hunks"`
	EditedByPerson bool          `json:"edited_by_person,omitempty" jsonschema:"the person changed your proposed text before applying; person_diff says how"`
	PersonDiff     string        `json:"person_diff,omitempty" jsonschema:"unified diff from your proposed text to the person's (what applies)"`
	Hunks          []hunkSummary `json:"hunks,omitempty"`
}

type historySummary struct {
	Time   string   `json:"time"`
	Action string   `json:"action" jsonschema:"proposed, applied, partially applied, rejected, withdrawn, reverted, revert undone, edited by person, conflict, recovered, backups left or held (the person held an apply, revert or undo back: a file had unsaved edits)"`
	Who    string   `json:"who,omitempty" jsonschema:"person, trestle, or the proposing client"`
	Files  []string `json:"files,omitempty"`
	What   string   `json:"what"`
}

type changeSetResult struct {
	State     string           `json:"state"`
	ID        string           `json:"id"`
	Title     string           `json:"title"`
	Client    string           `json:"client,omitempty"`
	SetState  string           `json:"change_set_state"`
	Reason    string           `json:"reason,omitempty"`
	Created   string           `json:"created"`
	Decided   string           `json:"decided,omitempty"`
	Files     []fileSummary    `json:"files"`
	Undecided bool             `json:"undecided" jsonschema:"nothing of it is decided yet"`
	CanApply  bool             `json:"can_apply" jsonschema:"some hunks still wait for the person's decision"`
	History   []historySummary `json:"history,omitempty"`
	Leftovers []string         `json:"leftover_backups,omitempty" jsonschema:"backup files an apply or revert could not remove; the change is complete"`
}

const timeFormat = "2006-01-02T15:04:05Z07:00"

func summarizeChangeSet(cs changeset.ChangeSet) changeSetResult {
	r := changeSetResult{State: stateDone, ID: cs.ID, Title: cs.Title, Client: cs.Client, SetState: cs.State,
		Reason: cs.Reason, Created: cs.Created.Format(timeFormat), Files: []fileSummary{},
		Undecided: cs.Undecided(), CanApply: cs.CanApply(), Leftovers: cs.Leftovers}
	if !cs.Decided.IsZero() {
		r.Decided = cs.Decided.Format(timeFormat)
	}
	for _, f := range cs.Files {
		fs := fileSummary{Path: f.Path, Action: f.Action, Added: f.Added, Removed: f.Removed,
			State: fileState(cs, f.State), Detail: f.Detail, Reason: f.Reason, EditedByPerson: f.EditedByPerson}
		for _, h := range f.Hunks {
			fs.Hunks = append(fs.Hunks, hunkSummary{N: h.N, State: fileState(cs, h.State), Detail: h.Detail})
		}
		r.Files = append(r.Files, fs)
	}
	return r
}

// detailChangeSet is summarizeChangeSet for a set read whole (with its
// bodies): with the history, each hunk's lines and counts, and the diff
// of what the person changed in a proposed text.
func detailChangeSet(full changeset.ChangeSet) changeSetResult {
	r := summarizeChangeSet(full)
	for i, f := range full.Files {
		r.Files[i].PersonDiff = changeset.EditDiff(f)
		for _, h := range changeset.Hunks(f) {
			if h.N <= len(r.Files[i].Hunks) {
				hs := &r.Files[i].Hunks[h.N-1]
				hs.OldStart, hs.OldLines, hs.NewStart, hs.NewLines = h.OldStart, h.OldLines, h.NewStart, h.NewLines
				hs.Added, hs.Removed = h.Added(), h.Removed()
			}
		}
	}
	for _, e := range full.History {
		r.History = append(r.History, historySummary{Time: e.At.Format(timeFormat), Action: e.Action, Who: e.Who, Files: e.Files, What: e.What})
	}
	return r
}

// fileState is a file's (or hunk's) state as agents are told it: what was
// never applied in a withdrawn or rejected set shares the set's state (a
// store from before per-hunk review kept such files as they were).
func fileState(cs changeset.ChangeSet, s string) string {
	undecided := s == changeset.StatePending || s == changeset.StateStale || s == changeset.StateConflict || s == changeset.FileSkipped
	if undecided && (cs.State == changeset.StateWithdrawn || cs.State == changeset.StateRejected) {
		return cs.State
	}
	return s
}

func describeChangeSet(cs changeset.ChangeSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %q by %s: %s", cs.ID, cs.Title, cs.Client, cs.State)
	if cs.Reason != "" {
		fmt.Fprintf(&b, " (reason: %s)", cs.Reason)
	}
	switch {
	case cs.Undecided():
		b.WriteString(" (the person can apply or reject it)")
	case cs.CanApply():
		b.WriteString("; the person can apply or reject the hunks still pending")
	}
	for _, f := range cs.Files {
		fmt.Fprintf(&b, "\n  %s %s +%d -%d: %s", f.Action, f.Path, f.Added, f.Removed, fileState(cs, f.State))
		if f.Detail != "" {
			fmt.Fprintf(&b, " (%s)", f.Detail)
		}
		if f.Reason != "" {
			fmt.Fprintf(&b, " (the person's reason: %s)", f.Reason)
		}
		if hunks := describeHunks(cs, f); hunks != "" {
			fmt.Fprintf(&b, "; hunks: %s", hunks)
		}
		if f.EditedByPerson {
			b.WriteString("; the person edited your proposed text before applying")
		}
	}
	for _, l := range cs.Leftovers {
		fmt.Fprintf(&b, "\n  backup left (the change is complete; it can be deleted): %s", l)
	}
	return b.String()
}

// describeHunks lists the hunks' states when they differ ("1 applied, 2
// rejected"), or "" when the file's state says it.
func describeHunks(cs changeset.ChangeSet, f changeset.FileChange) string {
	if len(f.Hunks) < 2 {
		return ""
	}
	parts, same := make([]string, len(f.Hunks)), true
	for i, h := range f.Hunks {
		parts[i] = fmt.Sprintf("%d %s", h.N, fileState(cs, h.State))
		same = same && h.State == f.Hunks[0].State
	}
	if same {
		return ""
	}
	return strings.Join(parts, ", ")
}

// describeDetail is describeChangeSet for a set read whole: also the
// person's edits, as diffs, and the history.
func describeDetail(full changeset.ChangeSet) string {
	var b strings.Builder
	b.WriteString(describeChangeSet(full))
	for _, f := range full.Files {
		if d := changeset.EditDiff(f); d != "" {
			fmt.Fprintf(&b, "\nThe person changed your proposed %s before applying; what applies differs from your proposal by:\n%s", f.Path, d)
		}
	}
	if len(full.History) > 0 {
		b.WriteString("\nHistory:")
		for _, e := range full.History {
			fmt.Fprintf(&b, "\n  %s %s: %s", e.At.Format(timeFormat), orSomeone(e.Who), e.What)
		}
	}
	return b.String()
}

func orSomeone(who string) string {
	if who == "" {
		return "trestle"
	}
	return who
}
