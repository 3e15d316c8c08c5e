package quickopen

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"trestle/internal/testfix"
)

func TestParseQuery(t *testing.T) {
	tests := []struct {
		name, q, pattern string
		line             int
	}{
		{"plain", "calc.go", "calc.go", 0},
		{"with a line", "calc.go:12", "calc.go", 12},
		{"only a line", ":7", "", 7},
		{"not a number", "a:b", "a:b", 0},
		{"zero is no line", "x.go:0", "x.go:0", 0},
		{"spaces", "  x.go : 3 ", "x.go", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, l := ParseQuery(tt.q)
			if p != tt.pattern || l != tt.line {
				t.Errorf("ParseQuery(%q) = %q, %d; want %q, %d", tt.q, p, l, tt.pattern, tt.line)
			}
		})
	}
}

func TestRankPrefersBaseNamesAndShortPaths(t *testing.T) {
	files := []string{
		"cmd/alc/client.go",
		"internal/deep/calc/calc.go",
		"calc/calc.go",
		"calc/calc_test.go",
		"README.md",
	}
	got := names(Rank("calc", files, 10))
	want := []string{"calc/calc.go", "calc/calc_test.go", "internal/deep/calc/calc.go"}
	if len(got) < len(want) || strings.Join(got[:len(want)], " ") != strings.Join(want, " ") {
		t.Fatalf("Rank(calc) = %v; want it to start with %v", got, want)
	}
	if r := Rank("zzz", files, 10); len(r) != 0 {
		t.Errorf("Rank(zzz) = %v; want nothing", names(r))
	}
	if r := Rank("", files, 2); len(r) != 2 || r[0].Name != files[0] {
		t.Errorf("Rank(\"\") = %v; want the first two in order", names(r))
	}
	if r := Rank("calc test", files, 1); len(r) != 1 || r[0].Name != "calc/calc_test.go" {
		t.Errorf("Rank(calc test) = %v; want calc/calc_test.go (spaces ignored)", names(r))
	}
}

// TestRankOnGOROOT ranks over a real tree nobody here wrote: the files of
// GOROOT/src (~10k), as a person's Ctrl+P would see them.
func TestRankOnGOROOT(t *testing.T) {
	files := gorootFiles(t)
	got := Rank("nethttpserver.go", files, 5)
	if len(got) == 0 || got[0].Name != "net/http/server.go" {
		t.Fatalf("Rank(nethttpserver.go) over GOROOT/src = %v; want net/http/server.go first", names(got))
	}
	got = Rank("strings.go", files, 3)
	if len(got) == 0 || got[0].Name != "strings/strings.go" {
		t.Errorf("Rank(strings.go) = %v; want strings/strings.go first", names(got))
	}
}

// rankQueries are patterns a person types into Go to File: short ones that
// match most of GOROOT/src, whole names, folders, upper case, spaces, none,
// and letters that Unicode folds onto ASCII ones (the Kelvin sign, long s).
var rankQueries = []string{
	"s", "ht", "httpsrv", "nethttpserver.go", "strings.go", "Reader", "TEST", "json decode",
	"zzz", "_test.go", "kelvin", "\u017ftrings", "naïve", "sTrInGs/",
}

// unicodeNames are candidates outside ASCII and with a NUL, where the
// library's folding and its cut at a NUL decide (the prefilter must not).
var unicodeNames = []string{
	"unicode/\u212aelvin.go", "unicode/\u212a.go", "x/\u017ftrings.go", "dir/naïve.go",
	"dir/NAÏVE_test.go", "nul\x00/strings.go", "nul/str\x00ings.go", "é/é.go", "ÉCOLE.md",
}

// TestRankSameAsBefore compares Rank, over GOROOT/src and a few names
// outside ASCII, with the two whole passes and full sort it replaced
// (rankReference): the same results in the same order, with the same
// matched offsets, for a short limit, the finder's and every match.
func TestRankSameAsBefore(t *testing.T) {
	files := append(gorootFiles(t), unicodeNames...)
	for _, q := range rankQueries {
		want := rankReference(q, files, len(files))
		for _, limit := range []int{5, 200, len(files)} {
			assertSameRank(t, fmt.Sprintf("Rank(%q, %d)", q, limit), Rank(q, files, limit), want[:min(limit, len(want))])
		}
	}
}

// TestRankerTypingSameAsRank types queries into one Ranker keystroke by
// keystroke (byte by byte, so also through half a UTF-8 letter), deletes
// and edits in the middle, and compares each answer with a fresh Rank,
// which TestRankSameAsBefore compares with the old code: reusing the last
// matches must change nothing. Every other file of GOROOT/src is enough
// (still more than one goroutine's share), and twice as quick with -race.
func TestRankerTypingSameAsRank(t *testing.T) {
	var files []string
	for i, f := range gorootFiles(t) {
		if i%2 == 0 {
			files = append(files, f)
		}
	}
	files = append(files, unicodeNames...)
	r := NewRanker(files)
	var typed []string
	for _, q := range []string{"nethttpserver.go", "\u212aelvin"} {
		for i := range len(q) + 1 {
			typed = append(typed, q[:i])
		}
		for i := len(q) - 1; i >= 0; i-- { // backspace to empty
			typed = append(typed, q[:i])
		}
	}
	typed = append(typed, "htp", "http", "htsrv", "httpsrv", "HTTPSRV", "htt psrv", "naïve", "a", "", "zz", "zzz", "z")
	for _, q := range typed {
		assertSameRank(t, fmt.Sprintf("after %q, Ranker.Rank(%q)", r.last, q), r.Rank(q, 200), Rank(q, files, 200))
	}
}

func assertSameRank(t *testing.T, what string, got, want []Result) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d results; before: %d (first %v; before %v)", what, len(got), len(want), names(got[:min(5, len(got))]), names(want[:min(5, len(want))]))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("%s: result %d is %+v; before it was %+v", what, i, got[i], want[i])
		}
	}
}

// BenchmarkRankGOROOT is one keystroke in Go to File over GOROOT/src.
// Figures: docs/performance.md.
func BenchmarkRankGOROOT(b *testing.B) {
	files := gorootFiles(b)
	b.ReportMetric(float64(len(files)), "files")
	b.ResetTimer()
	for b.Loop() {
		Rank("httpsrv", files, 50)
	}
}

// BenchmarkRankGOROOTOneLetter is the first keystroke of Go to File: one
// letter, which nearly every file of GOROOT/src matches, ranked for the
// finder's 200 rows.
func BenchmarkRankGOROOTOneLetter(b *testing.B) {
	files := gorootFiles(b)
	b.ResetTimer()
	for b.Loop() {
		Rank("s", files, 200)
	}
}

// BenchmarkRankGOROOTTyping types "nethttpserver.go" into Go to File over
// GOROOT/src, one keystroke an op, through one Ranker per query as the
// finder does.
func BenchmarkRankGOROOTTyping(b *testing.B) {
	files := gorootFiles(b)
	const query = "nethttpserver.go"
	var r *Ranker
	i := 0
	b.ResetTimer()
	for b.Loop() {
		if i == 0 {
			r = NewRanker(files)
		}
		i++
		r.Rank(query[:i], 200)
		i %= len(query)
	}
}

func gorootFiles(tb testing.TB) []string {
	tb.Helper()
	root := filepath.Join(testfix.GOROOT(tb), "src")
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil || len(files) < 5000 {
		if _, statErr := os.Stat(root); statErr != nil {
			tb.Skipf("no GOROOT/src here: %v", statErr)
		}
		tb.Fatalf("walk GOROOT/src: %d files, %v", len(files), err)
	}
	return files
}

func names(rs []Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Name
	}
	return out
}
