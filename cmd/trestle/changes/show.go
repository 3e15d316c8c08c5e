package changes

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"trestle/app/changeset"
)

// printList prints sets as a table. Text an agent wrote (the title, the
// client name) is escaped, so it can neither forge a row nor reach the
// terminal as an escape sequence.
func printList(w io.Writer, sets []changeset.ChangeSet, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tFILES\tCHANGE\tPROPOSED\tCLIENT\tTITLE")
	for _, cs := range sets {
		added, removed := cs.Stats()
		title := cs.Title
		if len(cs.RunsWhat()) > 0 {
			title = "[changes what runs] " + title
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t+%d -%d\t%s\t%s\t%s\n", esc(cs.ID), cs.State, len(cs.Files), added, removed,
			changeset.Age(now.Sub(cs.Created)), esc(orUnknown(cs.Client)), esc(title))
	}
	return tw.Flush()
}

// esc escapes every control character of one-line text an agent wrote,
// tabs and newlines included.
func esc(s string) string { return changeset.EscapeControls(s, "") }

// showChange prints a change set: its header, description and each file's
// unified diff. Everything an agent wrote is escaped (see
// changeset.EscapeControls): newlines are kept in the description and
// between diff lines, tabs within them, nothing else. With colour (a
// terminal), the "changes what runs" warning is in bold red.
func showChange(w io.Writer, cs changeset.ChangeSet, now time.Time, colour bool) {
	added, removed := cs.Stats()
	fmt.Fprintf(w, "%s  %s\nstate: %s; proposed by %s %s; %s, +%d -%d\n", esc(cs.ID), esc(cs.Title), cs.State,
		esc(orUnknown(cs.Client)), changeset.Age(now.Sub(cs.Created)), fileCount(len(cs.Files)), added, removed)
	if runs := cs.RunsWhat(); len(runs) > 0 {
		note := "WARNING: " + changeset.ChangesWhatRunsNote
		if colour {
			note = "\x1b[1;31m" + note + "\x1b[0m"
		}
		fmt.Fprintln(w, note)
	}
	if cs.Reason != "" {
		fmt.Fprintf(w, "reason: %s\n", esc(cs.Reason))
	}
	if pending := pendingList(cs); pending != "" && !cs.Undecided() {
		fmt.Fprintf(w, "still pending: %s\n", esc(pending))
	}
	for _, e := range cs.History {
		who := ""
		if e.Who != "" {
			who = esc(e.Who) + ": "
		}
		fmt.Fprintf(w, "history: %s %s%s\n", e.At.Local().Format("2006-01-02 15:04"), who, esc(e.What))
	}
	for _, l := range cs.Leftovers {
		fmt.Fprintf(w, "backup left (the change is complete; it can be deleted): %s\n", esc(l))
	}
	if d := strings.TrimSpace(cs.Description); d != "" {
		fmt.Fprintf(w, "\n%s\n", changeset.EscapeControls(d, "\t\n"))
	}
	for _, f := range cs.Files {
		fmt.Fprintf(w, "\n%s %s (+%d -%d): %s", f.Action, esc(f.Path), f.Added, f.Removed, f.State)
		if f.Detail != "" {
			fmt.Fprintf(w, " (%s)", esc(f.Detail))
		}
		if f.ChangesWhatRuns() {
			fmt.Fprint(w, " [changes what runs]")
		}
		if f.Reason != "" {
			fmt.Fprintf(w, " (reason: %s)", esc(f.Reason))
		}
		if f.EditedByPerson {
			fmt.Fprint(w, " [edited by the person: the diff is what applies]")
		}
		fmt.Fprintln(w)
		printHunks(w, f)
	}
}

// printHunks prints f's hunks as a unified diff, each hunk numbered as
// `trestle changes apply --hunk PATH:N` names it. Line texts are escaped
// (tabs kept), so a proposed line cannot rewrite what the terminal shows.
func printHunks(w io.Writer, f changeset.FileChange) {
	hunks := changeset.Hunks(f)
	if len(hunks) == 0 {
		return
	}
	from, to := "a/"+f.Path, "b/"+f.Path
	if !f.BaseExists {
		from = "/dev/null"
	}
	if f.Action == changeset.ActionDelete {
		to = "/dev/null"
	}
	fmt.Fprintf(w, "--- %s\n+++ %s\n", esc(from), esc(to))
	for _, h := range hunks {
		fmt.Fprintf(w, "@@ -%d,%d +%d,%d @@ hunk %d%s\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines, h.N, hunkNote(f, h.N))
		for _, l := range h.Lines {
			fmt.Fprintf(w, "%c%s\n", l.Kind, changeset.EscapeControls(l.Text, "\t"))
			if l.NoEOL {
				fmt.Fprintln(w, `\ No newline at end of file`)
			}
		}
	}
}

// hunkNote is what a hunk's state adds to its header: ": applied", or
// ": conflict (why)".
func hunkNote(f changeset.FileChange, n int) string {
	if n < 1 || n > len(f.Hunks) {
		return ""
	}
	h := f.Hunks[n-1]
	if h.Detail != "" {
		return ": " + h.State + " (" + esc(h.Detail) + ")"
	}
	return ": " + h.State
}

// fileCount is "1 file" or "3 files". (Not agent.Plural: this package is
// what the lean `trestle` front links, and app/agent would bring the
// evaluator's yaegi tables into it; see cmd/trestle/front.)
func fileCount(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}
