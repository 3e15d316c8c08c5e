package changes

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"trestle/app/changeset"
	"trestle/app/project"
	"trestle/app/store"
	"trestle/app/workbench"
)

// Main runs `trestle changes ARGS...` (args without "changes") and returns
// the exit code: 2 with one line on stderr for a usage error, else Run's.
// Both the `trestle` front and the workbench binary call it.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, storePath func() (string, error)) int {
	c, err := Parse(args)
	if err != nil {
		fmt.Fprintf(stderr, "trestle: %v (see trestle --help)\n", err)
		return 2
	}
	return Run(stdin, stdout, stderr, c, storePath)
}

// Run runs a `trestle changes` command against the change sets of the
// project in c's folder, in the store whose file storePath names (it is
// asked only when the command needs the store): 0 on success, 1 with one
// line on stderr when it fails or is refused.
func Run(stdin io.Reader, stdout, stderr io.Writer, c Command, storePath func() (string, error)) int {
	c.in = stdin
	defer lightGC()()
	if c.action == "help" {
		printChangesHelp(stdout, c.topic)
		return 0
	}
	m, err := openChanges(c.dir, storePath)
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

// lightGC makes the collector run less often for the rest of a `changes`
// command, and returns what puts it back: a command is one short
// transaction whose memory is all freed when the process ends. A 200-file
// apply at the default GOGC=100 spent about a tenth of its CPU collecting;
// with this, beside the code before on tmpfs (30 runs each, whole
// process), its CPU went 34.7 -> 32.4 and 35.8 -> 34.1 ms (GOGC=400 in the
// environment of the code before: 38.0 -> 34.0 and 37.2 -> 31.7 ms). The
// soft limit keeps a big set (up to 64 MiB of text) from growing the heap
// to five times what it holds.
func lightGC() (restore func()) {
	percent := debug.SetGCPercent(400)
	limit := debug.SetMemoryLimit(512 << 20)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// openChanges opens the project in dir and the store's change sets for it.
func openChanges(dir string, storePath func() (string, error)) (*changeset.Manager, error) {
	if dir == "" {
		dir = "."
	}
	p, err := project.Open(dir)
	if err != nil {
		return nil, err
	}
	path, err := storePath()
	if err != nil {
		return nil, err
	}
	db, err := store.Open(path)
	if err != nil {
		return nil, err
	}
	m := changeset.NewManager(db, p)
	m.MapBodies() // this process runs one command and ends
	return m, nil
}

func (c Command) run(stdout io.Writer, m *changeset.Manager) error {
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
		return c.apply(stdout, m)
	case "reject":
		return c.reject(stdout, m)
	case "revert":
		return c.revert(stdout, m)
	default:
		return c.undoRevert(stdout, m)
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

// isTerminal reports whether f (an *os.File) is a terminal: where colour
// is welcome, and where a person can answer a question.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && isatty(file)
}

// diskText reads project files from disk: without a window there is no
// editor buffer.
func diskText(p *project.Project) changeset.ReadFunc {
	return workbench.Reader{Project: p}.Func(context.Background())
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
