package changeset

import (
	"fmt"
	"strings"
)

// DiffContextLines is the unchanged lines shown around each change, as git does.
const DiffContextLines = 3

// Diff returns the unified diff of fc from its base to its new content,
// labelled a/PATH and b/PATH (/dev/null for a created or deleted file), or
// "" when they are equal. It shows exactly Hunks(fc), the hunks the person
// accepts or rejects, in the format go-udiff and git write. It is safe for
// concurrent use.
func Diff(fc FileChange) string {
	from, to := "a/"+fc.Path, "b/"+fc.Path
	if !fc.BaseExists {
		from = "/dev/null"
	}
	if fc.Action == ActionDelete {
		to = "/dev/null"
	}
	return unified(from, to, Hunks(fc))
}

// unified writes hunks as a unified diff from the file labelled from to
// the one labelled to, or "" when there are none.
func unified(from, to string, hunks []Hunk) string {
	if len(hunks) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", from, to)
	for _, h := range hunks {
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(h.OldStart, h.OldLines), hunkRange(h.NewStart, h.NewLines))
		for _, l := range h.Lines {
			fmt.Fprintf(&b, "%c%s\n", l.Kind, l.Text)
			if l.NoEOL {
				b.WriteString("\\ No newline at end of file\n")
			}
		}
	}
	return b.String()
}

// hunkRange is a hunk header's range, "START,LINES", as go-udiff writes
// it: the count left out when it is one, and an empty range named by the
// line after it (0,0 at the top).
func hunkRange(start, lines int) string {
	switch {
	case lines == 1:
		return fmt.Sprint(start)
	case lines == 0 && start == 0:
		return "0,0"
	case lines == 0:
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start, lines)
}
