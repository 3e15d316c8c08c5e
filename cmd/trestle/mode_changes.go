package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"trestle/app/changeset"
	"trestle/app/project"
	"trestle/app/store"
	"trestle/app/workbench"
)

// changesCmd is a `trestle changes ...` command line: the review path for
// people without the window.
type changesCmd struct {
	action string // list, show, apply or reject
	id     string // show, apply, reject
	reason string // reject
	dir    string // "" for the current folder
}

// parseChangesArgs reads `changes list [DIR]`, `changes show ID [DIR]`,
// `changes apply ID [DIR]` and `changes reject ID [--reason R] [DIR]`.
func parseChangesArgs(args []string) (invocation, error) {
	if len(args) == 0 {
		return invocation{}, errors.New("changes: say list, show, apply or reject")
	}
	c := changesCmd{action: args[0]}
	rest, err := c.takeReason(args[1:])
	if err != nil {
		return invocation{}, err
	}
	switch c.action {
	case "list":
	case "show", "apply", "reject":
		if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
			return invocation{}, fmt.Errorf("changes %s: the change set ID is missing, e.g. cs-3", c.action)
		}
		c.id, rest = rest[0], rest[1:]
	default:
		return invocation{}, fmt.Errorf("changes: unknown command %q; use list, show, apply or reject", c.action)
	}
	inv, err := withDir(invocation{mode: modeChanges}, rest)
	if err != nil {
		return invocation{}, fmt.Errorf("changes %s: %w", c.action, err)
	}
	c.dir = inv.dir
	inv.changes = c
	return inv, nil
}

// takeReason removes --reason R (or --reason=R) from args, for reject only.
func (c *changesCmd) takeReason(args []string) ([]string, error) {
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case !strings.HasPrefix(a, "-") || a == "-":
			rest = append(rest, a)
		case name != "reason":
			return nil, fmt.Errorf("changes %s: flag provided but not defined: %s", c.action, a)
		case c.action != "reject":
			return nil, fmt.Errorf("changes %s: --reason goes with reject only", c.action)
		case hasValue:
			c.reason = value
		case i+1 < len(args):
			i++
			c.reason = args[i]
		default:
			return nil, errors.New("changes reject: --reason needs a value")
		}
	}
	return rest, nil
}

// runChanges runs a `trestle changes` command against the change sets of
// the project in c.dir, in the store under the user config dir: 0 on
// success, 1 with one line on stderr when it fails or is refused.
func runChanges(stdout, stderr io.Writer, c changesCmd) int {
	m, err := openChanges(c.dir)
	if err == nil {
		var rec []changeset.Recovery
		rec, err = m.Start()
		for _, r := range rec {
			fmt.Fprintf(stderr, "trestle: change set %s: %s\n", r.ID, esc(r.What))
		}
	}
	if err == nil {
		err = c.run(stdout, m)
	}
	if err != nil {
		fmt.Fprintf(stderr, "trestle: %s\n", esc(oneLine(err)))
		return 1
	}
	return 0
}

// openChanges opens the project in dir and the store's change sets for it.
func openChanges(dir string) (*changeset.Manager, error) {
	if dir == "" {
		dir = "."
	}
	p, err := project.Open(dir)
	if err != nil {
		return nil, err
	}
	paths, err := userPaths()
	if err != nil {
		return nil, err
	}
	db, err := store.Open(paths.store)
	if err != nil {
		return nil, err
	}
	return changeset.NewManager(db, p), nil
}

func (c changesCmd) run(stdout io.Writer, m *changeset.Manager) error {
	switch c.action {
	case "list":
		return listChanges(stdout, m)
	case "show":
		cs, err := m.Full(c.id)
		if err != nil {
			return err
		}
		showChange(stdout, cs, time.Now(), isTerminal(stdout))
		return nil
	case "apply":
		cs, err := m.Apply(c.id, nil, diskText(m.Project()), nil)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Applied %s: %s\n", cs.ID, esc(strings.Join(filePaths(cs), ", ")))
		return nil
	default:
		cs, err := m.Reject(c.id, strings.TrimSpace(c.reason))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Rejected %s.\n", cs.ID)
		return nil
	}
}

// listChanges prints one line per change set, newest first.
func listChanges(w io.Writer, m *changeset.Manager) error {
	sets, err := m.List("")
	if err != nil {
		return err
	}
	if len(sets) == 0 {
		fmt.Fprintf(w, "No change sets for %s.\n", m.Project().Root)
		return nil
	}
	return printList(w, sets, time.Now())
}

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
	fmt.Fprintf(w, "%s  %s\nstate: %s; proposed by %s %s; %d files, +%d -%d\n", esc(cs.ID), esc(cs.Title), cs.State,
		esc(orUnknown(cs.Client)), changeset.Age(now.Sub(cs.Created)), len(cs.Files), added, removed)
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
	for _, e := range cs.History {
		fmt.Fprintf(w, "history: %s %s\n", e.Time.Local().Format("2006-01-02 15:04"), esc(e.What))
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
		fmt.Fprintf(w, "\n%s", changeset.EscapeControls(changeset.Diff(f), "\t\n"))
	}
}

// isTerminal reports whether w is a terminal, where colour is welcome.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// diskText reads project files from disk: without a window there is no
// editor buffer.
func diskText(p *project.Project) changeset.ReadFunc {
	return workbench.Reader{Project: p}.Func(context.Background())
}

func filePaths(cs changeset.ChangeSet) []string {
	out := make([]string, len(cs.Files))
	for i, f := range cs.Files {
		out[i] = f.Path
	}
	return out
}

func orUnknown(client string) string {
	if client == "" {
		return "unknown client"
	}
	return client
}

// oneLine keeps an error message on one line for stderr.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
