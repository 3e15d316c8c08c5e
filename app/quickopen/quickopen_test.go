package quickopen

import (
	"io/fs"
	"os"
	"path/filepath"
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
