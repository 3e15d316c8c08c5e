package changeset

import (
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
)

// bigGoFile is a generated Go file of n lines, like real code: many
// lines repeat ("}", "", "\treturn nil") and the rest differ.
func bigGoFile(n int) []string {
	lines := make([]string, 0, n)
	for i := 0; len(lines) < n; i++ {
		lines = append(lines,
			fmt.Sprintf("func f%d(x int) error {\n", i),
			fmt.Sprintf("\ty := x * %d\n", i),
			"\tif y < 0 {\n",
			"\t\treturn nil\n",
			"\t}\n",
			fmt.Sprintf("\treturn check(y, %d)\n", i),
			"}\n",
			"\n")
	}
	return lines[:n]
}

// scatter changes every step-th line of lines (from the line at first),
// count times, and returns the new text and the 1-based changed lines.
func scatter(lines []string, first, step, count int) (string, []int) {
	out := append([]string(nil), lines...)
	var at []int
	for i := range count {
		k := first + i*step
		out[k] = strings.TrimSuffix(out[k], "\n") + " // changed\n"
		at = append(at, k+1)
	}
	return strings.Join(out, ""), at
}

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
	lines := bigGoFile(10_000)
	new, changed := scatter(lines, 37, 99, 100)
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
	new, changed := scatter(lines, 11, len(lines)/60, 60)
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

// TestLineDiffFallsBackWhenTooCostly checks the bound on the exact diff:
// two unrelated texts of the same few common lines (the worst case for
// Myers) fall back to go-udiff's bounded diff, and the hunks still give
// the new text and the base; the other large cases stay exact.
func TestLineDiffFallsBackWhenTooCostly(t *testing.T) {
	for _, c := range diffCases() {
		t.Run(c.name, func(t *testing.T) {
			_, exact := exactLineEdits(c.base, c.new, maxDiffWork)
			if want := !(c.name == "shuffled"); exact != want {
				t.Fatalf("exact diff %v, want %v", exact, want)
			}
			if !exact && !reflect.DeepEqual(lineEdits(c.base, c.new), udiff.Lines(c.base, c.new)) {
				t.Fatalf("the fallback is not go-udiff's diff")
			}
			checkComposes(t, FileChange{Path: "f.go", Action: ActionReplace, BaseExists: true, Base: c.base, New: c.new})
		})
	}
}

// TestMyersWithinIsTheDistance checks the cost check against a textbook
// LCS over random small texts: with an unbounded budget it finds every
// distance, and with a budget below the diagonals a distance needs it
// says no.
func TestMyersWithinIsTheDistance(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 8))
	runes := func() ([]rune, []string) {
		var rs []rune
		var ls []string
		for range rng.IntN(30) {
			r := rune('a' + rng.IntN(4))
			rs, ls = append(rs, r), append(ls, string(r))
		}
		return rs, ls
	}
	for i := range 3000 {
		a, al := runes()
		b, bl := runes()
		d := len(a) + len(b) - 2*lcsLen(al, bl)
		if !myersWithin(a, b, 1<<30) {
			t.Fatalf("case %d: %q %q: no distance found", i, string(a), string(b))
		}
		if d > 0 && myersWithin(a, b, d*d/4-1) {
			t.Fatalf("case %d: %q %q at distance %d found within %d steps", i, string(a), string(b), d, d*d/4-1)
		}
	}
}
