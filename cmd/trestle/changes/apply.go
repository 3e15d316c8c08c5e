package changes

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"trestle/app/changeset"
	"trestle/app/errdefs"
)

// selection is what --file and --hunk pick, or nil for everything
// pending.
func (c Command) selection() (changeset.Selection, error) {
	if len(c.files) == 0 && len(c.hunks) == 0 {
		return nil, nil
	}
	sel := changeset.Selection{}
	for _, f := range c.files {
		sel[f] = nil
	}
	for _, h := range c.hunks {
		path, n, err := changeset.ParseHunkRef(h)
		if err != nil {
			return nil, err
		}
		if ns, whole := sel[path]; !whole || ns != nil {
			sel[path] = append(ns, n)
		}
	}
	return sel, nil
}

// apply applies what c selects and says what was applied and what is
// still pending.
func (c Command) apply(stdout io.Writer, m *changeset.Manager) error {
	sel, err := c.selection()
	if err != nil {
		return err
	}
	cs, err := m.ApplySelection(c.id, sel, nil, nil) // nil: the files on disk, whose old content the journal keeps
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Applied %s: %s.\n", esc(cs.ID), esc(lastWhat(cs)))
	if pending := pendingList(cs); pending != "" {
		fmt.Fprintf(stdout, "Still pending: %s.\n", esc(pending))
	}
	printLeftovers(stdout, cs)
	return nil
}

// reject rejects what c selects, with c's reason.
func (c Command) reject(stdout io.Writer, m *changeset.Manager) error {
	sel, err := c.selection()
	if err != nil {
		return err
	}
	reason := strings.TrimSpace(c.reason)
	var cs changeset.ChangeSet
	if sel == nil {
		cs, err = m.Reject(c.id, reason)
	} else {
		cs, err = m.RejectSelection(c.id, sel, reason)
	}
	if err != nil {
		return err
	}
	if sel == nil {
		fmt.Fprintf(stdout, "Rejected %s.\n", esc(cs.ID))
	} else {
		fmt.Fprintf(stdout, "Rejected in %s: %s.\n", esc(cs.ID), esc(lastWhat(cs)))
	}
	if pending := pendingList(cs); pending != "" {
		fmt.Fprintf(stdout, "Still pending: %s.\n", esc(pending))
	}
	return nil
}

// errNoTerminal refuses a revert that cannot ask.
var errNoTerminal = fmt.Errorf("revert needs a yes from the person, and there is no terminal to ask on; run it in a terminal, or add --yes to revert without asking: %w", errdefs.ErrRefused)

// revert says what reverting the set will do, asks (unless --yes), and
// reverts it.
func (c Command) revert(stdout io.Writer, m *changeset.Manager) error {
	cs, err := m.Get(c.id)
	if err != nil {
		return err
	}
	if cs.State != changeset.StateApplied && cs.State != changeset.StatePartlyApplied {
		return fmt.Errorf("revert %s: it is %s, not applied: %w", cs.ID, cs.State, errdefs.ErrInvalid)
	}
	if !c.yes {
		if !isTerminal(c.in) {
			return errNoTerminal
		}
		fmt.Fprintf(stdout, "Revert %s %s?\n%s", esc(cs.ID), esc(cs.Title), revertPlan(cs))
		fmt.Fprint(stdout, "Revert? (trestle changes undo-revert undoes it) [y/N] ")
		answer, _ := bufio.NewReader(c.in).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(stdout, "Not reverted.")
			return nil
		}
	}
	cs, err = m.Revert(c.id, diskText(m.Project()), nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Reverted %s; trestle changes undo-revert %s applies it again.\n", esc(cs.ID), esc(cs.ID))
	printLeftovers(stdout, cs)
	return nil
}

// revertPlan says what a revert of cs does to each file, one per line.
func revertPlan(cs changeset.ChangeSet) string {
	var b strings.Builder
	for _, f := range cs.Files {
		if f.State != changeset.StateApplied && f.State != changeset.StatePartlyApplied {
			continue
		}
		what := "back to its text before the apply"
		switch {
		case !f.BaseExists:
			what = "removed (the apply created it)"
		case f.Action == changeset.ActionDelete:
			what = "recreated (the apply deleted it)"
		}
		fmt.Fprintf(&b, "  %s: %s\n", esc(f.Path), what)
	}
	return b.String()
}

// undoRevert applies again what a revert put back.
func (c Command) undoRevert(stdout io.Writer, m *changeset.Manager) error {
	cs, err := m.UndoRevert(c.id, diskText(m.Project()), nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Undid the revert of %s: %s applied again.\n", esc(cs.ID), esc(lastWhat(cs)))
	printLeftovers(stdout, cs)
	return nil
}

// lastWhat is the newest history entry's sentence, without its action
// when it starts with it: for "applied a.go (hunk 1)", "a.go (hunk 1)".
func lastWhat(cs changeset.ChangeSet) string {
	if len(cs.History) == 0 {
		return cs.State
	}
	e := cs.History[len(cs.History)-1]
	what := strings.TrimPrefix(e.What, e.Action+" ")
	return strings.TrimPrefix(what, e.Action+": ")
}

// pendingList names what of cs still waits for the person: "a.go (hunk
// 2), b.go".
func pendingList(cs changeset.ChangeSet) string {
	var parts []string
	for _, f := range cs.Files {
		var ns []string
		for _, h := range f.Hunks {
			if h.State == changeset.StatePending || h.State == changeset.StateConflict {
				ns = append(ns, fmt.Sprint(h.N))
			}
		}
		switch {
		case len(ns) == 0:
		case len(ns) == len(f.Hunks):
			parts = append(parts, f.Path)
		default:
			parts = append(parts, fmt.Sprintf("%s (hunk %s)", f.Path, strings.Join(ns, ", ")))
		}
	}
	return strings.Join(parts, ", ")
}

// printLeftovers tells the person which backups an apply or revert left.
func printLeftovers(w io.Writer, cs changeset.ChangeSet) {
	for _, l := range cs.Leftovers {
		fmt.Fprintf(w, "Note: could not remove the backup %s; the change is complete and it can be deleted.\n", esc(l))
	}
}
