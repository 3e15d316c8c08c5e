package changeset

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"trestle/app/linediff"
	"trestle/internal/testfix"
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

// renderUnified is the unified diff of hunks, as Diff writes it.
func renderUnified(from, to string, hunks []Hunk) string { return unified(from, to, hunks) }

// TestHunksAreAMinimalDiff checks Hunks over random texts (few distinct
// lines, so that many diffs are possible) for the properties per-hunk
// review needs: every hunk gives the new text and none the base; a random
// accept mask gives the base with exactly the accepted hunks' lines in
// place (written from the hunks' own lines, not from their edits); the
// diff is minimal (as many changed lines as a textbook LCS says); hunks
// are in order, do not overlap, have at most DiffContextLines of context
// at their ends and are apart by more than twice it; each line's numbers
// name its line in the base and the new text.
func TestHunksAreAMinimalDiff(t *testing.T) {
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
		hunks, plans := Hunks(fc), planHunks(fc.Base, fc.New)
		checkHunkShape(t, i, fc, hunks)
		setHunkStats(&fc)
		a, _ := splitText(fc.Base)
		b, _ := splitText(fc.New)
		if want := len(a) + len(b) - 2*testfix.LCSLen(a, b); fc.Added+fc.Removed != want {
			t.Fatalf("case %d: base %q new %q: +%d -%d, a minimal diff changes %d lines", i, fc.Base, fc.New, fc.Added, fc.Removed, want)
		}
		if added, removed := diffStats(fc.Base, fc.New); fc.Added != added || fc.Removed != removed {
			t.Fatalf("case %d: stats +%d -%d from hunks, +%d -%d from the edits", i, fc.Added, fc.Removed, added, removed)
		}
		if got := compose(fc.Base, plans, func(int) bool { return true }); got != fc.New {
			t.Fatalf("case %d: every hunk gives %q, want %q", i, got, fc.New)
		}
		if got := compose(fc.Base, plans, func(int) bool { return false }); got != fc.Base {
			t.Fatalf("case %d: no hunk gives %q, want the base %q", i, got, fc.Base)
		}
		mask := rng.Uint32()
		accept := func(n int) bool { return mask&(1<<(n-1)) != 0 }
		if got, want := compose(fc.Base, plans, accept), patchWith(a, hunks, accept); got != want {
			t.Fatalf("case %d mask %b: base %q new %q\n got %q\nwant %q", i, mask, fc.Base, fc.New, got, want)
		}
	}
}

// checkHunkShape checks hunks are numbered, ordered, apart, with their
// context bounded and their line numbers right.
func checkHunkShape(t *testing.T, i int, fc FileChange, hunks []Hunk) {
	t.Helper()
	a, _ := splitText(fc.Base)
	b, _ := splitText(fc.New)
	lastChange := -1 << 30 // base line of the previous hunk's last change
	for k, h := range hunks {
		first, last := -1, -1
		for j, l := range h.Lines {
			if l.Kind != Context {
				if first < 0 {
					first = j
				}
				last = j
			}
			if (l.Old > 0 && strings.TrimSuffix(a[l.Old-1], "\n") != l.Text) || (l.New > 0 && strings.TrimSuffix(b[l.New-1], "\n") != l.Text) {
				t.Fatalf("case %d hunk %d: line %+v is not its base or new line", i, h.N, l)
			}
		}
		if h.N != k+1 || first < 0 || first > DiffContextLines || len(h.Lines)-1-last > DiffContextLines {
			t.Fatalf("case %d hunk %d (#%d): changes at %d..%d of %d lines", i, h.N, k+1, first, last, len(h.Lines))
		}
		if h.OldStart-lastChange <= 2*DiffContextLines && k > 0 {
			t.Fatalf("case %d hunk %d starts at base line %d, %d after the last change", i, h.N, h.OldStart, h.OldStart-lastChange)
		}
		lastChange = h.OldStart + h.OldLines - 1 - (len(h.Lines) - 1 - last)
	}
}

// patchWith is base (as lines) with the hunks accept takes put in place,
// from each hunk's own lines: what a reader of the diff expects.
func patchWith(base []string, hunks []Hunk, accept func(n int) bool) string {
	var b strings.Builder
	at := 0 // next base line (0-based) not yet written
	for _, h := range hunks {
		if !accept(h.N) {
			continue
		}
		start := h.OldStart - 1
		if h.OldLines == 0 {
			start = h.OldStart
		}
		b.WriteString(strings.Join(base[at:start], ""))
		for _, l := range h.Lines {
			if l.Kind != Removed {
				b.WriteString(l.Text)
				if !l.NoEOL {
					b.WriteString("\n")
				}
			}
		}
		at = start + h.OldLines
	}
	b.WriteString(strings.Join(base[at:], ""))
	return b.String()
}

// diffStats counts the lines a line diff from base to new adds and
// removes, from the edits themselves: what the hunks' counts must match.
func diffStats(base, new string) (added, removed int) {
	for _, e := range linediff.Edits(base, new) {
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
