package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	out := `goos: linux
BenchmarkBridgeUITool-2   	    5000	    410000 ns/op	       353.0 p50-µs	       912.0 p99-µs
BenchmarkSearchTrestle/literal-2         	       5	  81234567 ns/op
BenchmarkIdleRSS 	       1	2001234567 ns/op	        95.50 window-MiB
--- SKIP: BenchmarkSearchRipgrep
PASS
`
	res := results{}
	parse(strings.NewReader(out), res)
	tests := []struct {
		name, bench, unit string
		want              float64
	}{
		{"custom metric", "BenchmarkBridgeUITool", "p50-µs", 353},
		{"sub-benchmark", "BenchmarkSearchTrestle/literal", "ns/op", 81234567},
		{"no GOMAXPROCS suffix", "BenchmarkIdleRSS", "window-MiB", 95.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := res.get(tt.bench, tt.unit); !ok || got != tt.want {
				t.Errorf("%s %s = %v %v, want %v", tt.bench, tt.unit, got, ok, tt.want)
			}
		})
	}
}

func TestReplaceSection(t *testing.T) {
	doc := "# Title\n\n" + startMarker + "\nold table\n" + endMarker + "\n\n## Rest\nkept\n"
	got, err := replaceSection(doc, "new table\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "# Title\n\n" + startMarker + "\nnew table\n" + endMarker + "\n\n## Rest\nkept\n"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if _, err := replaceSection("no markers", "x"); err == nil {
		t.Error("no error without markers")
	}
}

func TestRenderTableRatios(t *testing.T) {
	res := results{
		"BenchmarkLoopbackEcho":     {"p50-µs": 20, "ns/op": 25000},
		"BenchmarkBridgeNonUITool":  {"p50-µs": 300, "p99-µs": 1500},
		"BenchmarkEntryKeystroke3k": {"ns/op": 2e9},
	}
	rows := []row{rows[0], {label: "k", value: metric{"BenchmarkEditorKeystroke100k", "ns/op"}, base: entryKey, baseName: "entry"}}
	res["BenchmarkEditorKeystroke100k"] = map[string]float64{"ns/op": 2e6}
	got := renderTable(rows, res)
	for _, want := range []string{"| 300 µs (p99 1.50 ms) | loopback echo p50 20 µs | 15× | ≤ 10× loopback: **not met** |",
		"| 2.00 ms | entry 2.00 s | 0.001× (1000× faster) |"} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}

// TestEveryRowIsBenchmarked: each benchmark a row of the table reads
// (its figure and its baseline) is defined in a package that runs
// benchmarks, by a -bench pattern that selects it, so a run never leaves
// a committed figure as "—" because nothing ran it.
func TestEveryRowIsBenchmarked(t *testing.T) {
	defined := benchmarksByPackage(t)
	for _, r := range rows {
		for _, m := range []*metric{&r.value, r.base} {
			if m == nil || m == busyBound {
				continue
			}
			name, _, _ := strings.Cut(m.bench, "/")
			pkg, ok := defined[name]
			if !ok {
				t.Errorf("row %q: no package defines %s", r.label, name)
				continue
			}
			if !slices.ContainsFunc(runs, func(run run) bool { return run.pkg == pkg && selects(run.bench, name) }) {
				t.Errorf("row %q: %s (in %s) is in no run of scripts/bench/runs.go", r.label, name, pkg)
			}
		}
	}
}

// selects reports whether go test's -bench pattern selects the top-level
// benchmark name.
func selects(pattern, name string) bool {
	top, _, _ := strings.Cut(pattern, "/")
	return regexp.MustCompile(top).MatchString(name)
}

// benchmarksByPackage maps each Benchmark function of this repository to
// its package, as go test names it ("./app/linediff").
func benchmarksByPackage(t *testing.T) map[string]string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository root is not two folders up: %v", err)
	}
	decl := regexp.MustCompile(`(?m)^func (Benchmark\w+)\(`)
	found := map[string]string{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
			found[m[1]] = "./" + filepath.ToSlash(rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestRunsWith: -only picks the groups whose pattern names the benchmark,
// e.g. the start row's alone.
func TestRunsWith(t *testing.T) {
	got := runsWith(runs, "FirstUIAnswer")
	if len(got) != 1 || got[0].pkg != "./cmd/trestle" || !strings.Contains(got[0].bench, "BenchmarkFirstUIAnswer") {
		t.Errorf("runsWith(FirstUIAnswer) = %v, want the one group of BenchmarkFirstUIAnswer", got)
	}
	if got := runsWith(runs, "NoSuchBenchmark"); len(got) != 0 {
		t.Errorf("runsWith(NoSuchBenchmark) = %v, want none", got)
	}
}
