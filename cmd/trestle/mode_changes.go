package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"trestle/app"
	"trestle/app/changeset"
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
	p, err := app.OpenProject(dir)
	if err != nil {
		return nil, err
	}
	paths, err := userPaths()
	if err != nil {
		return nil, err
	}
	store, err := app.OpenStore(paths.store)
	if err != nil {
		return nil, err
	}
	return changeset.NewManager(store, p), nil
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
func diskText(p *app.Project) changeset.ReadFunc {
	return func(rel string) (string, bool, error) {
		ft, err := p.ReadFile(rel)
		if errors.Is(err, app.ErrNotFound) {
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		return ft.Text, true, nil
	}
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
