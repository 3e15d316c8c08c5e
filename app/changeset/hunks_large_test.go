package changeset

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"trestle/internal/testfix"
)

// checkOneHunkEach checks hunks has one hunk per changed line, each
// removing exactly that line and adding one, with at most the context
// around it.
func checkOneHunkEach(t *testing.T, hunks []Hunk, changed []int) {
	t.Helper()
	if len(hunks) != len(changed) {
		for _, h := range hunks {
			if h.OldLines > 2*DiffContextLines+1 {
				t.Errorf("hunk %d covers base lines %d-%d", h.N, h.OldStart, h.OldStart+h.OldLines-1)
			}
		}
		t.Fatalf("%d hunks for %d separate one-line changes", len(hunks), len(changed))
	}
	for i, h := range hunks {
		if h.N != i+1 || h.Added() != 1 || h.Removed() != 1 || h.OldLines > 2*DiffContextLines+1 {
			t.Fatalf("hunk %d: N %d, +%d -%d over base lines %d-%d; want the one line %d changed",
				i+1, h.N, h.Added(), h.Removed(), h.OldStart, h.OldStart+h.OldLines-1, changed[i])
		}
		for _, l := range h.Lines {
			if l.Kind == Removed && l.Old != changed[i] {
				t.Fatalf("hunk %d removes line %d, want %d", h.N, l.Old, changed[i])
			}
		}
	}
}

// TestHunksOfALargeFileStayFine is the bug of a line diff that gives up
// on large inputs: a 10,000-line file with 100 separate one-line changes
// must give 100 small hunks, not a few that each cover thousands of lines.
func TestHunksOfALargeFileStayFine(t *testing.T) {
	lines := testfix.GoLines(10_000)
	new, changed := testfix.Scatter(lines, 37, 99, 100)
	fc := FileChange{Path: "big.go", Action: ActionReplace, BaseExists: true, Base: strings.Join(lines, ""), New: new}
	checkOneHunkEach(t, Hunks(fc), changed)
	checkDiffIsHunks(t, fc)

	// A random half of the hunks gives the base with just their lines changed.
	rng := rand.New(rand.NewPCG(100, 10_000))
	accepted := map[int]bool{}
	want := append([]string(nil), lines...)
	for i, at := range changed {
		if rng.IntN(2) == 0 {
			accepted[i+1] = true
			want[at-1] = strings.TrimSuffix(want[at-1], "\n") + " // changed\n"
		}
	}
	got := compose(fc.Base, planHunks(fc.Base, fc.New), func(n int) bool { return accepted[n] })
	if got != strings.Join(want, "") {
		t.Fatalf("hunks %v accepted: not the base with just their lines changed", accepted)
	}
}

// TestHunksOfARealFile is the same over a real file, a copy of
// net/http's server.go (testdata/server.go.txt), with edits scattered
// through it: lines changed, inserted and removed.
func TestHunksOfARealFile(t *testing.T) {
	data, err := os.ReadFile("testdata/server.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines, _ := splitText(string(data))
	new, changed := testfix.Scatter(lines, 11, len(lines)/60, 60)
	fc := FileChange{Path: "server.go", Action: ActionReplace, BaseExists: true, Base: string(data), New: new}
	checkOneHunkEach(t, Hunks(fc), changed)

	// Inserted and removed lines, each far from the others.
	var b strings.Builder
	for i, l := range lines {
		switch {
		case i%97 == 50:
			fmt.Fprintf(&b, "\t// inserted before line %d\n", i+1)
			b.WriteString(l)
		case i%97 == 20:
			// removed
		default:
			b.WriteString(l)
		}
	}
	fc.New = b.String()
	want := 0
	for i := range lines {
		if i%97 == 50 || i%97 == 20 {
			want++
		}
	}
	hunks := Hunks(fc)
	if len(hunks) != want {
		t.Fatalf("%d hunks for %d separate insertions and removals", len(hunks), want)
	}
	for _, h := range hunks {
		if h.Added()+h.Removed() != 1 {
			t.Fatalf("hunk %d: +%d -%d, want one line", h.N, h.Added(), h.Removed())
		}
	}
	checkComposes(t, fc)
}

// checkDiffIsHunks checks Diff shows exactly the hunks Hunks numbers.
func checkDiffIsHunks(t *testing.T, fc FileChange) {
	t.Helper()
	from, to := "a/"+fc.Path, "b/"+fc.Path
	if !fc.BaseExists {
		from = "/dev/null"
	}
	if fc.Action == ActionDelete {
		to = "/dev/null"
	}
	if got, want := Diff(fc), renderUnified(from, to, Hunks(fc)); got != want {
		t.Fatalf("Diff is not the hunks:\n got:\n%.2000s\nwant:\n%.2000s", got, want)
	}
}

// checkComposes checks every hunk gives the new text and none the base.
func checkComposes(t *testing.T, fc FileChange) {
	t.Helper()
	plans := planHunks(fc.Base, fc.New)
	if got := compose(fc.Base, plans, func(int) bool { return true }); got != fc.New {
		t.Fatalf("every hunk does not give the new text")
	}
	if got := compose(fc.Base, plans, func(int) bool { return false }); got != fc.Base {
		t.Fatalf("no hunk does not give the base")
	}
}
