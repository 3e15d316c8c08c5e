package registry

import (
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"
)

// Discover picks the entry for --mcp-attach. With dir set, it is the entry
// whose Dir equals or contains dir (deepest wins). With dir empty, it is
// the entry containing cwd (deepest wins), or else the only entry. Anything
// else is a *NoMatchError. Containment is by path components, so /a/bc is
// not inside /a/b.
func Discover(entries []Entry, dir, cwd string) (Entry, error) {
	want := dir
	if want == "" {
		want = cwd
	}
	if want != "" {
		want = resolve(want)
		if e, ok := deepest(entries, want); ok {
			return e, nil
		}
	}
	if dir == "" && len(entries) == 1 {
		return entries[0], nil
	}
	return Entry{}, &NoMatchError{Want: want, Entries: entries}
}

// resolve makes p absolute and, when it exists, resolves symlinks.
func resolve(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return filepath.Clean(p)
}

// deepest returns the entry with the longest Dir that contains want; of
// two windows on that folder, the one started last.
func deepest(entries []Entry, want string) (Entry, bool) {
	best, found := Entry{}, false
	for _, e := range entries {
		if !contains(e.Dir, want) {
			continue
		}
		d, bd := depth(e.Dir), depth(best.Dir)
		if !found || d > bd || (d == bd && e.Started.After(best.Started)) {
			best, found = e, true
		}
	}
	return best, found
}

// Twins returns the other entries on picked's project folder: windows
// --mcp-attach did not pick, which it names on stderr.
func Twins(entries []Entry, picked Entry) []Entry {
	var out []Entry
	for _, e := range entries {
		if e.PID != picked.PID && filepath.Clean(e.Dir) == filepath.Clean(picked.Dir) {
			out = append(out, e)
		}
	}
	return out
}

// Describe names an entry for people: pid, project and start time.
func Describe(e Entry) string {
	return fmt.Sprintf("pid %d on %s, started %s", e.PID, e.Dir, stamp(e.Started))
}

// contains reports whether path p is root or lies inside it, comparing
// whole path components.
func contains(root, p string) bool {
	if root == "" {
		return false
	}
	root, p = filepath.Clean(root), filepath.Clean(p)
	if p == root {
		return true
	}
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	return strings.HasPrefix(p, root)
}

// depth counts the components of a cleaned path.
func depth(p string) int {
	return strings.Count(filepath.Clean(p), string(filepath.Separator))
}

// NoMatchError says no live window matched. Want is the folder that was
// looked for (the dir asked for, else the working directory); Entries are
// the live windows. Its Error is a message for a person on stderr.
type NoMatchError struct {
	Want    string
	Entries []Entry
}

// Error explains what was looked for and lists the open windows.
func (e *NoMatchError) Error() string {
	if len(e.Entries) == 0 {
		if e.Want == "" {
			return "no Trestle window is open; start one with: trestle DIR"
		}
		return fmt.Sprintf("no Trestle window is open for %s; start one with: trestle DIR", e.Want)
	}
	var b strings.Builder
	if e.Want == "" {
		fmt.Fprintf(&b, "no Trestle window was chosen; %d are open:\n", len(e.Entries))
	} else {
		fmt.Fprintf(&b, "no Trestle window has a project folder containing %s; %d are open:\n", e.Want, len(e.Entries))
	}
	for _, w := range e.Entries {
		fmt.Fprintf(&b, "  pid %d  port %d  %s  started %s\n", w.PID, w.Port, w.Dir, stamp(w.Started))
	}
	b.WriteString("pass the project folder: trestle --mcp-attach DIR")
	return b.String()
}

// stamp formats a start time for people, in local time.
func stamp(t time.Time) string {
	return t.Local().Format("2006-01-02 15:04:05")
}

// Format renders entries as an aligned table with the header
// PID PORT PROJECT STARTED, for `trestle --list`. With no entries it says
// that no Trestle windows are open.
func Format(entries []Entry) string {
	if len(entries) == 0 {
		return "no Trestle windows are open\n"
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "PID\tPORT\tPROJECT\tSTARTED")
	for _, e := range entries {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\n", e.PID, e.Port, e.Dir, stamp(e.Started))
	}
	tw.Flush()
	return b.String()
}
