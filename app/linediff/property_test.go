package linediff

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"trestle/internal/testfix"
)

// bounds are the bounds the property tests diff with: Edits' own, and
// smaller ones that send small texts down the anchored diff (between
// anchors exact, anchored again, or go-udiff's once the steps are
// spent), which real files reach only when large.
var bounds = []struct{ work, gapsWork, gapWork int }{
	{maxDiffWork, maxDiffWork, maxGapWork},
	{0, 0, 0},
	{0, maxDiffWork, 0},
	{0, maxDiffWork, 8},
	{0, 0, maxGapWork},
	{0, 40, 8},
}

// checkEdits checks that edits are a line diff from base to new: in
// order, apart, each cut at line boundaries and changing something, and
// applied to base they give new. It returns the lines they change
// (removed plus added).
func checkEdits(t *testing.T, what, base, new string, edits []udiff.Edit) int {
	t.Helper()
	_, offs := Split(base)
	atLine := func(off int) bool { _, ok := slices.BinarySearch(offs, off); return ok }
	changed, last := 0, -1
	for k, e := range edits {
		if e.Start <= last || e.End < e.Start || !atLine(e.Start) || !atLine(e.End) || (e.Start == e.End && e.New == "") {
			t.Fatalf("%s: edit %d of %d is %+v after one ending at %d: not in order, apart, at line boundaries", what, k, len(edits), e, last)
		}
		if e.New != "" && !strings.HasSuffix(e.New, "\n") && e.End != len(base) {
			t.Fatalf("%s: edit %d %+v adds a line without its newline before the end", what, k, e)
		}
		last = e.End
		changed += countLines(base[e.Start:e.End]) + countLines(e.New)
	}
	if got, err := udiff.Apply(base, edits); err != nil || got != new {
		t.Fatalf("%s: the edits give %q (%v), want %q", what, got, err, new)
	}
	return changed
}

// countLines counts the lines of a chunk cut at line boundaries.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// minimal is how many lines a minimal line diff from base to new
// changes, by the textbook LCS.
func minimal(base, new string) int {
	a, _ := Split(base)
	b, _ := Split(new)
	return len(a) + len(b) - 2*testfix.LCSLen(a, b)
}

// mutate is text with a few block edits: lines deleted, inserted (new or
// copied from elsewhere) and moved, as edits of code are.
func mutate(rng *rand.Rand, text string, edits int) string {
	lines, _ := Split(text)
	lines = append([]string(nil), lines...)
	for range edits {
		if len(lines) == 0 {
			lines = append(lines, "new\n")
			continue
		}
		at, n := rng.IntN(len(lines)), 1+rng.IntN(8)
		end := min(len(lines), at+n)
		switch rng.IntN(4) {
		case 0: // delete
			lines = append(lines[:at:at], lines[end:]...)
		case 1: // insert new lines
			var ins []string
			for k := range n {
				ins = append(ins, fmt.Sprintf("inserted %d.%d\n", rng.IntN(1000), k))
			}
			lines = append(lines[:at:at], append(ins, lines[at:]...)...)
		case 2: // copy a block elsewhere
			block := append([]string(nil), lines[at:end]...)
			to := rng.IntN(len(lines) + 1)
			lines = append(lines[:to:to], append(block, lines[to:]...)...)
		case 3: // move a block
			block := append([]string(nil), lines[at:end]...)
			rest := append(lines[:at:at], lines[end:]...)
			to := rng.IntN(len(rest) + 1)
			lines = append(rest[:to:to], append(block, rest[to:]...)...)
		}
	}
	out := strings.Join(lines, "")
	if rng.IntN(5) == 0 {
		out = strings.TrimSuffix(out, "\n")
	}
	return out
}

// TestEditsOnRandomTexts checks the line diff on random texts, each
// against another random text or an edit of itself, over small and
// large alphabets of lines: with Edits' bounds the diff is minimal (as
// the textbook LCS says), and with every bound (see bounds) the edits
// are a line diff that gives the new text and changes no fewer lines.
func TestEditsOnRandomTexts(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	text := func() string {
		var b strings.Builder
		alphabet := []int{2, 4, 8, 40, 1000}[rng.IntN(5)]
		for range rng.IntN(80) {
			fmt.Fprintf(&b, "l%d\n", rng.IntN(alphabet))
		}
		if rng.IntN(5) == 0 {
			b.WriteString("tail")
		}
		return b.String()
	}
	for i := range 1500 {
		base := text()
		new := text()
		if rng.IntN(2) == 0 {
			new = mutate(rng, base, 1+rng.IntN(6))
		}
		want := minimal(base, new)
		for _, bd := range bounds {
			what := fmt.Sprintf("case %d, bounds %v: base %q new %q", i, bd, base, new)
			got := checkEdits(t, what, base, new, bounded(base, new, bd.work, bd.gapsWork, bd.gapWork))
			if got < want || (bd.work == maxDiffWork && got != want) {
				t.Fatalf("%s: %d lines changed, a minimal diff changes %d", what, got, want)
			}
		}
	}
}

// realPairs are pairs of real Go files: the files of golang.org/x/sys's
// unix and golang.org/x/mod's packages at this repository's version (from
// the module cache) beside the same files at the version GOROOT vendors,
// and standard library files written after one another (strings and
// bytes).
func realPairs(t *testing.T) [][2]string {
	goroot := testfix.GOROOT(t)
	var pairs [][2]string
	for mod, pkgs := range map[string][]string{
		"golang.org/x/sys": {"unix"},
		"golang.org/x/mod": {"modfile", "module", "semver", "zip"},
	} {
		lib := testfix.CopyLibrary(t, mod, pkgs...)
		for _, pkg := range pkgs {
			files, _ := filepath.Glob(filepath.Join(lib, pkg, "*.go"))
			for _, f := range files {
				old := filepath.Join(goroot, "src", "cmd", "vendor", mod, pkg, filepath.Base(f))
				if _, err := os.Stat(old); err == nil {
					pairs = append(pairs, [2]string{old, f})
				}
			}
		}
	}
	src := filepath.Join(goroot, "src")
	for _, p := range [][2]string{
		{"bytes/bytes.go", "strings/strings.go"},
		{"bytes/reader.go", "strings/reader.go"},
		{"bytes/buffer.go", "strings/builder.go"},
		{"sort/zsortfunc.go", "sort/zsortinterface.go"},
		{"slices/zsortanyfunc.go", "slices/zsortordered.go"},
		{"bytes/bytes_test.go", "strings/strings_test.go"},
	} {
		pairs = append(pairs, [2]string{filepath.Join(src, p[0]), filepath.Join(src, p[1])})
	}
	if len(pairs) < 100 {
		t.Fatalf("only %d pairs of real files", len(pairs))
	}
	return pairs
}

// TestEditsOnRealFiles checks the line diff on real Go files (realPairs),
// and on large standard library files against edits of themselves: the
// edits give the new file; they are minimal where the textbook LCS is
// affordable; and the anchored diff (Edits past its bound, forced here)
// also gives the new file and changes at most 2% more lines in all.
func TestEditsOnRealFiles(t *testing.T) {
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var cases [][3]string // name, base, new
	for _, p := range realPairs(t) {
		cases = append(cases, [3]string{p[0] + " → " + p[1], read(p[0]), read(p[1])})
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for _, f := range []string{"net/http/server.go", "go/types/expr.go", "runtime/proc.go", "cmd/compile/internal/ssagen/ssa.go"} {
		base := read(filepath.Join(testfix.GOROOT(t), "src", f))
		cases = append(cases, [3]string{f + " edited", base, mutate(rng, base, 60)})
	}
	exactLines, anchoredLines, checked := 0, 0, 0
	for _, c := range cases {
		name, base, new := c[0], c[1], c[2]
		got := checkEdits(t, name, base, new, Edits(base, new))
		anchored := checkEdits(t, name+" (anchored)", base, new, bounded(base, new, 0, maxDiffWork, maxGapWork))
		if anchored < got {
			t.Fatalf("%s: the anchored diff changes %d lines, fewer than the exact %d", name, anchored, got)
		}
		exactLines, anchoredLines = exactLines+got, anchoredLines+anchored
		if strings.Count(base, "\n")*strings.Count(new, "\n") <= 2_000_000 { // the LCS's time
			if want := minimal(base, new); got != want {
				if _, exact := exactEdits(base, new, maxDiffWork); exact {
					t.Fatalf("%s: %d lines changed, a minimal diff changes %d", name, got, want)
				}
			}
			checked++
		}
	}
	t.Logf("%d pairs (%d checked against the LCS): %d lines changed, %d anchored", len(cases), checked, exactLines, anchoredLines)
	if anchoredLines*100 > exactLines*102 {
		t.Fatalf("the anchored diffs change %d lines, more than 2%% over the %d of the exact ones", anchoredLines, exactLines)
	}
}

// TestEditsOfManyDistinctLines checks a text of more distinct lines than
// runes below the surrogates (which go-diff's runes must skip): 70,000
// numbered lines with every 700th changed gives a minimal diff of 100
// changed lines each way.
func TestEditsOfManyDistinctLines(t *testing.T) {
	var base, new strings.Builder
	for i := range 70_000 {
		fmt.Fprintf(&base, "line %d\n", i)
		if i%700 == 0 {
			fmt.Fprintf(&new, "line %d changed\n", i)
		} else {
			fmt.Fprintf(&new, "line %d\n", i)
		}
	}
	edits := Edits(base.String(), new.String())
	if got := checkEdits(t, "70,000 lines", base.String(), new.String(), edits); got != 200 || len(edits) != 100 {
		t.Fatalf("%d edits changing %d lines, want 100 changing 200", len(edits), got)
	}
}
