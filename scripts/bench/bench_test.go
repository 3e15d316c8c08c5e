package main

import (
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
	defined := benchmarksByPackageT(t)
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

func TestRenderToolsListRow(t *testing.T) {
	res := results{"BenchmarkToolsList": {"headless-B": 13741, "gopls-B": 4345}}
	var tools []row
	for _, r := range rows {
		if r.value.bench == "BenchmarkToolsList" {
			tools = append(tools, r)
		}
	}
	if len(tools) != 1 {
		t.Fatalf("%d headless tools/list rows, want 1", len(tools))
	}
	got := renderTable(tools, res)
	if want := "| 13,741 B | `gopls mcp` on the same module 4,345 B | 3.16× | ≤ 20,000 B: met |"; !strings.Contains(got, want) {
		t.Errorf("table lacks %q:\n%s", want, got)
	}
}

// benchmarksByPackageT is benchmarksByPackage of this repository.
func benchmarksByPackageT(t *testing.T) map[string]string {
	t.Helper()
	found, err := benchmarksByPackage("../..")
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func TestRunsForOneRow(t *testing.T) {
	defined := benchmarksByPackageT(t)
	tests := []struct {
		name, only string
		want       []run
	}{
		{"a sub-benchmark of a group", "diagnostics after an edit", []run{{"./app/lsp", "^(BenchmarkGopls)$/^(diagnostics)$", "30x"}}},
		{"figure and baseline from two benchmarks", "an agent reads: the window",
			[]run{{"./cmd/trestle", "^(BenchmarkIdleRSS|BenchmarkToolsList)$", "2x"}}},
		{"baseline a row of its own", "UI tool `trestle_workbench` on an idle window",
			[]run{{"./cmd/trestle", "^(BenchmarkBridgeUITool|BenchmarkBridgeNonUITool)$", "2s"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runsFor(selectRows(rows, regexp.MustCompile(regexp.QuoteMeta(tt.only))), runs, defined)
			if !slices.Equal(got, tt.want) {
				t.Errorf("runsFor(%q) = %v, want %v", tt.only, got, tt.want)
			}
		})
	}
}
