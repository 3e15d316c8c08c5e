package changeset

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
)

func TestHunksNumbersAndLines(t *testing.T) {
	base := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
	new := strings.Replace(strings.Replace(base, "b\n", "B\n", 1), "l\n", "l\nL2\n", 1)
	got := Hunks(FileChange{Path: "x.txt", Action: ActionReplace, BaseExists: true, Base: base, New: new})
	want := []Hunk{
		{N: 1, OldStart: 1, OldLines: 5, NewStart: 1, NewLines: 5, Lines: []DiffLine{
			{Kind: Context, Text: "a", Old: 1, New: 1},
			{Kind: Removed, Text: "b", Old: 2},
			{Kind: Added, Text: "B", New: 2},
			{Kind: Context, Text: "c", Old: 3, New: 3},
			{Kind: Context, Text: "d", Old: 4, New: 4},
			{Kind: Context, Text: "e", Old: 5, New: 5},
		}},
		{N: 2, OldStart: 10, OldLines: 4, NewStart: 10, NewLines: 5, Lines: []DiffLine{
			{Kind: Context, Text: "j", Old: 10, New: 10},
			{Kind: Context, Text: "k", Old: 11, New: 11},
			{Kind: Context, Text: "l", Old: 12, New: 12},
			{Kind: Added, Text: "L2", New: 13},
			{Kind: Context, Text: "m", Old: 13, New: 14},
		}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("hunks:\n got %+v\nwant %+v", got, want)
	}
	if got[0].Added() != 1 || got[0].Removed() != 1 || got[1].Added() != 1 || got[1].Removed() != 0 {
		t.Fatalf("counts: %d/%d %d/%d", got[0].Added(), got[0].Removed(), got[1].Added(), got[1].Removed())
	}
}

func TestHunksOfCreateDeleteAndNoNewline(t *testing.T) {
	tests := []struct {
		name      string
		fc        FileChange
		wantLines []DiffLine
	}{
		{"create", FileChange{Action: ActionCreate, New: "x\ny"}, []DiffLine{
			{Kind: Added, Text: "x", New: 1}, {Kind: Added, Text: "y", New: 2, NoEOL: true}}},
		{"delete", FileChange{Action: ActionDelete, BaseExists: true, Base: "x\n"}, []DiffLine{
			{Kind: Removed, Text: "x", Old: 1}}},
		{"newline added at the end", FileChange{Action: ActionReplace, BaseExists: true, Base: "x", New: "x\n"}, []DiffLine{
			{Kind: Removed, Text: "x", Old: 1, NoEOL: true}, {Kind: Added, Text: "x", New: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := Hunks(tt.fc)
			if len(h) != 1 || !reflect.DeepEqual(h[0].Lines, tt.wantLines) {
				t.Fatalf("got %+v, want one hunk with %+v", h, tt.wantLines)
			}
		})
	}
	if h := Hunks(FileChange{Action: ActionCreate}); len(h) != 0 {
		t.Fatalf("an empty new file has hunks: %+v", h)
	}
}

// renderUnified writes hunks as go-udiff writes a unified diff, so the
// two can be compared.
func renderUnified(from, to string, hunks []Hunk) string {
	if len(hunks) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", from, to)
	rng := func(sign string, start, n int) string {
		switch {
		case n > 1:
			return fmt.Sprintf(" %s%d,%d", sign, start, n)
		case n == 0 && start == 0:
			return fmt.Sprintf(" %s0,0", sign)
		case n == 0:
			return fmt.Sprintf(" %s%d", sign, start+1) // udiff names the line after
		}
		return fmt.Sprintf(" %s%d", sign, start)
	}
	for _, h := range hunks {
		fmt.Fprintf(&b, "@@%s%s @@\n", rng("-", h.OldStart, h.OldLines), rng("+", h.NewStart, h.NewLines))
		for _, l := range h.Lines {
			fmt.Fprintf(&b, "%c%s\n", l.Kind, l.Text)
			if l.NoEOL {
				b.WriteString("\\ No newline at end of file\n")
			}
		}
	}
	return b.String()
}

// TestHunksMatchTheUnifiedDiff checks Hunks against go-udiff's own
// unified diff (Diff) over random texts: same hunks, same lines, same
// numbers; and that composing every hunk gives the new text, none the base.
func TestHunksMatchTheUnifiedDiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 13))
	text := func() string {
		var b strings.Builder
		for range rng.IntN(40) {
			fmt.Fprintf(&b, "l%d\n", rng.IntN(8))
		}
		if rng.IntN(4) == 0 {
			b.WriteString("tail")
		}
		return b.String()
	}
	for i := range 2000 {
		fc := FileChange{Path: "f.txt", Action: ActionReplace, BaseExists: true, Base: text(), New: text()}
		if rng.IntN(10) == 0 {
			fc.Action, fc.BaseExists, fc.Base = ActionCreate, false, ""
		}
		from, to := "a/f.txt", "b/f.txt"
		if !fc.BaseExists {
			from = "/dev/null"
		}
		hunks := Hunks(fc)
		if got, want := renderUnified(from, to, hunks), Diff(fc); got != want {
			t.Fatalf("case %d: base %q new %q\n got:\n%s\nwant:\n%s", i, fc.Base, fc.New, got, want)
		}
		plans := planHunks(fc.Base, fc.New)
		setHunkStats(&fc)
		if added, removed := diffStats(fc.Base, fc.New); fc.Added != added || fc.Removed != removed {
			t.Fatalf("case %d: stats +%d -%d from hunks, +%d -%d from the edits", i, fc.Added, fc.Removed, added, removed)
		}
		if got := compose(fc.Base, plans, func(int) bool { return true }); got != fc.New {
			t.Fatalf("case %d: every hunk gives %q, want %q", i, got, fc.New)
		}
		if got := compose(fc.Base, plans, func(int) bool { return false }); got != fc.Base {
			t.Fatalf("case %d: no hunk gives %q, want the base %q", i, got, fc.Base)
		}
	}
}

// diffStats counts the lines a line diff from base to new adds and
// removes, from the edits themselves: what the hunks' counts must match.
func diffStats(base, new string) (added, removed int) {
	for _, e := range udiff.Lines(base, new) {
		removed += countLines(base[e.Start:e.End])
		added += countLines(e.New)
	}
	return added, removed
}

// countLines counts the lines of a chunk cut at line boundaries: a last
// line without its newline still counts.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
