package linediff

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"trestle/internal/testfix"
)

// TestFallsBackWhenTooCostly checks the bound on the exact diff: two
// unrelated texts of the same few common lines (the worst case for Myers,
// with no line unique to anchor on) fall back to go-udiff's bounded diff,
// a file with its functions reordered is anchored on their lines (and
// changes fewer lines than go-udiff's diff), the
// other large cases stay exact, and the edits give the new text in every
// case.
func TestFallsBackWhenTooCostly(t *testing.T) {
	for _, c := range diffCases() {
		t.Run(c.name, func(t *testing.T) {
			_, exact := exactEdits(c.base, c.new, maxDiffWork)
			if want := c.name != "shuffled" && c.name != "reordered"; exact != want {
				t.Fatalf("exact diff %v, want %v", exact, want)
			}
			if c.name == "shuffled" && !reflect.DeepEqual(Edits(c.base, c.new), udiff.Lines(c.base, c.new)) {
				t.Fatalf("the fallback is not go-udiff's diff")
			}
			if c.name == "reordered" {
				got := checkEdits(t, c.name, c.base, c.new, Edits(c.base, c.new))
				coarse := checkEdits(t, c.name+" (go-udiff)", c.base, c.new, udiff.Lines(c.base, c.new))
				if got >= coarse {
					t.Fatalf("the anchored diff changes %d lines, go-udiff's %d", got, coarse)
				}
				t.Logf("the anchored diff changes %d lines, go-udiff's %d", got, coarse)
			}
			got, err := udiff.Apply(c.base, Edits(c.base, c.new))
			if err != nil || got != c.new {
				t.Fatalf("the edits do not give the new text (%v)", err)
			}
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
		d := len(a) + len(b) - 2*testfix.LCSLen(al, bl)
		if !myersWithin(a, b, 1<<30) {
			t.Fatalf("case %d: %q %q: no distance found", i, string(a), string(b))
		}
		if d > 0 && myersWithin(a, b, d*d/4-1) {
			t.Fatalf("case %d: %q %q at distance %d found within %d steps", i, string(a), string(b), d, d*d/4-1)
		}
	}
}
