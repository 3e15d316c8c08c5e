package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// run is one `go test -bench` invocation. benchtime is small: the whole
// set must finish in about eight minutes on two cores.
type run struct {
	pkg, bench, benchtime string
}

// runs are every benchmark of the project, grouped so that each group gets
// a benchtime that suits it.
var runs = []run{
	{"./cmd/trestle", "^Benchmark(LoopbackEcho|RelayEcho|BridgeNonUITool|BridgeRawLine|BridgeVsRelay|BridgeUITool)$", "2s"},
	{"./cmd/trestle", "^Benchmark(BusyUI|IdleRSS|ToolsList)$", "2x"},
	{"./mcpbridge", "^Benchmark(HandleMessagePing|ListenerRoundTrip)$", "1s"},
	{"./ui/editor", ".", "1s"},
	{"./app/linediff", ".", "1s"},
	{"./app/search", ".", "5x"},
	{"./app/quickopen", ".", "20x"},
	{"./app/eval", ".", "1s"},
	{"./app/changeset", ".", "5x"},
	{"./cmd/trestle", "^BenchmarkApplyCLI$", "5x"},
	{"./app/lsp", "^BenchmarkGopls$", "30x"},
	{"./mcpbridge", "^BenchmarkGopls(Headless|LargeFile)$", "10x"},
	{"./cmd/trestle", "^BenchmarkGoplsWindow$", "10x"},
	{"./cmd/trestle", "^BenchmarkFirstUIAnswer$", "5x"},
	{"./cmd/trestle", "^BenchmarkRSSAfterLoad$", "1x"},
	{"./cmd/trestle", "^BenchmarkGoplsRSS$/^(fixture|bbolt)$", "1x"},
}

// results maps a benchmark's name (without the -GOMAXPROCS suffix, with
// its sub-benchmark path) to its metrics by unit: ns/op, p50-µs, ….
type results map[string]map[string]float64

// cpuName is the "cpu:" line of go test's output, once one was seen.
var cpuName string

// runAll runs each group, echoing go test's output to log, and returns
// what it measured and an error naming the groups that failed.
func runAll(runs []run, log io.Writer) (results, error) {
	res := results{}
	var failed []error
	for _, r := range runs {
		fmt.Fprintf(log, "bench: go test -run '^$' -bench '%s' -benchtime %s %s\n", r.bench, r.benchtime, r.pkg)
		if err := runOne(r, res, log); err != nil {
			failed = append(failed, fmt.Errorf("%s %s: %w", r.pkg, r.bench, err))
		}
	}
	return res, errors.Join(failed...)
}

func runOne(r run, res results, log io.Writer) error {
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", r.bench, "-benchtime", r.benchtime, "-count", "1", r.pkg)
	cmd.Env = append(os.Environ(), "CI=") // a missing Xvfb or ripgrep skips instead of failing
	var out bytes.Buffer
	cmd.Stdout = io.MultiWriter(&out, log)
	cmd.Stderr = log
	err := cmd.Run()
	parse(&out, res)
	return err
}

// benchLine is a result line: name, iterations, then value-unit pairs.
var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.+)$`)

// parse adds the result lines of go test's standard output to res.
func parse(r io.Reader, res results) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if cpu, ok := strings.CutPrefix(sc.Text(), "cpu: "); ok {
			cpuName = strings.TrimSpace(cpu)
		}
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		metrics := map[string]float64{}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				metrics[f[i+1]] = v
			}
		}
		res[m[1]] = metrics
	}
}

// get returns a metric of a benchmark, if it was measured.
func (res results) get(name, unit string) (float64, bool) {
	v, ok := res[name][unit]
	return v, ok
}
