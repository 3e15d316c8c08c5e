package main

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"time"
)

// metric names one figure of one benchmark.
type metric struct {
	bench, unit string
}

// row is one line of the table: a figure, optionally the baseline it is
// compared with (measured in the same run) and a target.
type row struct {
	label    string
	value    metric
	p99      string // unit of a p99 to show beside a p50, if any
	base     *metric
	baseName string
	target   float64 // in the value's unit; 0 when none
	targetIs string  // how the target reads, e.g. "≤ 5 ms"
	// ratioTarget is the most measured/baseline may be (0 when none); with
	// target too, both must hold.
	ratioTarget float64
}

var (
	loopbackP50 = &metric{"BenchmarkLoopbackEcho", "p50-µs"}
	loopbackNs  = &metric{"BenchmarkLoopbackEcho", "ns/op"}
	nonUIP50    = &metric{"BenchmarkBridgeNonUITool", "p50-µs"}
	relayP50    = &metric{"BenchmarkRelayEcho", "p50-µs"}
	entryKey    = &metric{"BenchmarkEntryKeystroke3k", "ns/op"}
	entrySet    = &metric{"BenchmarkEntrySetText3k", "ns/op"}
	busyBound   = &metric{"", "bound-ms"} // the 2 s bound of a UI call, a constant
)

func searchRows(pattern string) []row {
	trestle := metric{"BenchmarkSearchTrestle/" + pattern, "ns/op"}
	rows := []row{{label: "search GOROOT/src, " + pattern + " pattern: Trestle vs ripgrep (same line counts)", value: trestle,
		base: &metric{"BenchmarkSearchRipgrep/" + pattern, "ns/op"}, baseName: "ripgrep", ratioTarget: 1.2, targetIs: "≤ 1.2× ripgrep"}}
	if !strings.HasPrefix(pattern, "regexp") { // git grep's regular expressions are not Go's
		rows = append(rows, row{label: "search GOROOT/src, " + pattern + " pattern: Trestle vs git grep", value: trestle,
			base: &metric{"BenchmarkSearchGitGrep/" + pattern, "ns/op"}, baseName: "git grep"})
	}
	return rows
}

// pairRow is a figure timed interleaved with its baseline in one
// benchmark (trestle-ms beside baseUnit), with a target on the ratio.
func pairRow(label, bench, baseUnit, baseName string, ratio float64, targetIs string) row {
	return row{label: label, value: metric{bench, "trestle-ms"}, base: &metric{bench, baseUnit}, baseName: baseName,
		ratioTarget: ratio, targetIs: targetIs}
}

// rows is the table, in the order of docs/performance.md.
var rows = append(append(append([]row{
	{label: "bridge round trip, `trestle_files` (mcp-go client → bridge → window)", value: metric{"BenchmarkBridgeNonUITool", "p50-µs"}, p99: "p99-µs",
		base: loopbackP50, baseName: "loopback echo p50", target: 10, targetIs: "≤ 10× loopback"},
	{label: "bridge round trip, the same line written by hand", value: metric{"BenchmarkBridgeRawLine", "p50-µs"}, p99: "p99-µs",
		base: loopbackP50, baseName: "loopback echo p50", target: 10, targetIs: "≤ 10× loopback"},
	{label: "a minimal stdio↔TCP relay process to an echo process: the bridge's hops without Trestle", value: *relayP50, p99: "p99-µs",
		base: loopbackP50, baseName: "loopback echo p50"},
	{label: "`trestle --mcp-attach` against that relay, both to the window (the same line by hand, alternated)", value: metric{"BenchmarkBridgeVsRelay", "bridge-p50-µs"},
		base: &metric{"BenchmarkBridgeVsRelay", "relay-p50-µs"}, baseName: "relay after the handshake p50"},
	{label: "UI tool `trestle_workbench` on an idle window", value: metric{"BenchmarkBridgeUITool", "p50-µs"}, p99: "p99-µs",
		base: nonUIP50, baseName: "non-UI tool p50", target: 5000, targetIs: "p50 ≤ 5 ms"},
	{label: "blocked UI (3 s stall): time until `busy`", value: metric{"BenchmarkBusyUI", "busy-ms"},
		base: busyBound, baseName: "the 2 s bound", target: 2100, targetIs: "≤ bound + 100 ms"},
	{label: "in process: mcp-go handles a ping", value: metric{"BenchmarkHandleMessagePing", "ns/op"},
		base: loopbackNs, baseName: "loopback echo"},
	{label: "in process: listener round trip, ping", value: metric{"BenchmarkListenerRoundTrip/ping", "ns/op"},
		base: loopbackNs, baseName: "loopback echo"},
	{label: "in process: listener round trip, `trestle_files`", value: metric{"BenchmarkListenerRoundTrip/files", "ns/op"},
		base: loopbackNs, baseName: "loopback echo"},
	{label: "editor: one keystroke at 100k lines", value: metric{"BenchmarkEditorKeystroke100k", "ns/op"},
		base: entryKey, baseName: "`widget.Entry` keystroke at 3k", target: 16e6, targetIs: "≤ 16 ms"},
	{label: "editor: keystroke opening `/*` at 100k lines", value: metric{"BenchmarkEditorKeystrokeOpensComment100k", "ns/op"},
		base: entryKey, baseName: "`widget.Entry` keystroke at 3k", target: 16e6, targetIs: "≤ 16 ms"},
	{label: "editor: scroll a page at 100k lines", value: metric{"BenchmarkEditorScrollPage100k", "ns/op"}, target: 16e6, targetIs: "≤ 16 ms"},
	{label: "editor: open a 100k-line Go file", value: metric{"BenchmarkEditorOpen100k", "ns/op"},
		base: entrySet, baseName: "`widget.Entry` SetText at 3k"},
	{label: "Go to File: rank GOROOT/src's files for one keystroke", value: metric{"BenchmarkRankGOROOT", "ns/op"}, target: 16e6, targetIs: "≤ 16 ms"},
}, searchRows("literal")...), append(searchRows("common"), append(searchRows("regexp"), searchRows("regexp-space")...)...)...), []row{
	{label: "evaluation: `1+1` on a warm worker", value: metric{"BenchmarkEvalWarm", "ns/op"}, target: 2e6, targetIs: "≤ 2 ms"},
	{label: "evaluation: worker cold start and first answer", value: metric{"BenchmarkColdStart", "ns/op"}, target: 300e6, targetIs: "≤ 300 ms"},
	{label: "evaluation: answer past a 200 ms deadline", value: metric{"BenchmarkDeadlineOverrun", "ms-past-deadline"}, target: 100, targetIs: "≤ 100 ms"},
	{label: "evaluation: warm interpreted call into plain project code", value: metric{"BenchmarkEvalAgree/interpreted", "ns/op"},
		base: &metric{"BenchmarkGoRunAgree/interpreted", "ns/op"}, baseName: "`go run` of the same code"},
	{label: "evaluation: warm compiled cell (a generic project func)", value: metric{"BenchmarkEvalAgree/compiled", "ns/op"},
		base: &metric{"BenchmarkGoRunAgree/compiled", "ns/op"}, baseName: "`go run` of the same code"},
	{label: "change set: apply 200 files of ≈4 KB", value: metric{"BenchmarkApply200Files", "ns/op"}, target: 200e6, targetIs: "≤ 200 ms"},
	pairRow("change set: `trestle changes apply` of 200 files of ≈4 KB, whole process, 20 sets in the store", "BenchmarkApplyCLI",
		"git-ms", "`git apply` of the same patch", 2, "≤ 2× git apply"),
	{label: "change set: validate an edit of a 1 MB file", value: metric{"BenchmarkProposeEdit1MB", "ns/op"}},
	diffRow("10k lines, 100 one-line changes", "scattered"), diffRow("10k lines, all rewritten", "rewritten"),
	diffRow("10k lines, unrelated common lines (fallback)", "shuffled"),
	goplsRow("diagnostics after an edit"), goplsRow("hover"), goplsRow("definition"), goplsRow("references"), goplsRow("completion"),
	pairRow("headless `trestle_definition` through MCP (bbolt)", "BenchmarkGoplsHeadless/definition", "bare-ms",
		"bare LSP client, file open", 5, "≤ 5× bare"),
	pairRow("headless `trestle_references` through MCP (bbolt)", "BenchmarkGoplsHeadless/references", "bare-ms",
		"bare LSP client, file open", 5, "≤ 5× bare"),
	pairRow("window `trestle_definition` through `--mcp-attach` (bbolt, the file open in an editor)", "BenchmarkGoplsWindow/definition", "bare-ms",
		"bare LSP client, file open", 3, "≤ 3× bare"),
	pairRow("window `trestle_references` through `--mcp-attach` (bbolt, the file open in an editor)", "BenchmarkGoplsWindow/references", "bare-ms",
		"bare LSP client, file open", 3, "≤ 3× bare"),
	{label: "headless `trestle_definition` into a file of 25,000 funcs", value: metric{"BenchmarkGoplsLargeFile/definition", "trestle-ms"},
		base: &metric{"BenchmarkGoplsLargeFile/definition", "bare-ms"}, baseName: "bare definition + documentSymbol",
		target: 2000, ratioTarget: 20, targetIs: "≤ 2 s and ≤ 20× bare"},
	{label: "RSS: gopls with go.etcd.io/bbolt loaded", value: metric{"BenchmarkGopls/rss", "gopls-MiB"}},
	{label: "RSS: the window with gopls, e2e fixture (under Xvfb)", value: metric{"BenchmarkGoplsRSS/fixture", "window-MiB"}},
	{label: "RSS: its gopls, e2e fixture", value: metric{"BenchmarkGoplsRSS/fixture", "gopls-MiB"}},
	{label: "RSS: the window with gopls, bbolt (under Xvfb)", value: metric{"BenchmarkGoplsRSS/bbolt", "window-MiB"}},
	{label: "RSS: its gopls, bbolt", value: metric{"BenchmarkGoplsRSS/bbolt", "gopls-MiB"}},
	pairRow("start: `trestle DIR` to the first answer of a UI tool (`trestle_workbench`), under Xvfb", "BenchmarkFirstUIAnswer", "fyne-ms",
		"a minimal Fyne window's first answer", 1.5, "≤ 1.5× minimal window"),
	{label: "RSS of the window a minute after a load of 8 agents × 500 calls ends (bbolt)", value: metric{"BenchmarkRSSAfterLoad", "after-MiB"},
		base: &metric{"BenchmarkRSSAfterLoad", "before-MiB"}, baseName: "before the load", ratioTarget: 1.2, targetIs: "≤ 1.2× before"},
	{label: "RSS of the window at the load's peak", value: metric{"BenchmarkRSSAfterLoad", "peak-MiB"},
		base: &metric{"BenchmarkRSSAfterLoad", "before-MiB"}, baseName: "before the load"},
	{label: "idle RSS: the window (under Xvfb)", value: metric{"BenchmarkIdleRSS", "window-MiB"}},
	{label: "idle RSS: the bridge (`--mcp-attach`)", value: metric{"BenchmarkIdleRSS", "bridge-MiB"}},
	{label: "idle RSS: headless (`--mcp`)", value: metric{"BenchmarkIdleRSS", "headless-MiB"}},
	{label: "`tools/list` an agent reads: headless `trestle --mcp` (bbolt)", value: metric{"BenchmarkToolsList", "headless-B"},
		base: goplsTools, baseName: "`gopls mcp` on the same module", target: 20000, targetIs: "≤ 20,000 B"},
	{label: "`tools/list` an agent reads: the window through `--mcp-attach`", value: metric{"BenchmarkIdleRSS", "window-tools-B"},
		base: goplsTools, baseName: "`gopls mcp` on bbolt", target: 20000, targetIs: "≤ 20,000 B"},
}...)

// goplsTools is the size of gopls's own MCP server's tools/list answer.
var goplsTools = &metric{"BenchmarkToolsList", "gopls-B"}

// diffRow is the exact line diff behind change-set hunks against
// go-udiff's bounded one on the same texts (BenchmarkLineDiff/sub).
func diffRow(what, sub string) row {
	return row{label: "hunks: line diff, " + what, value: metric{"BenchmarkLineDiff/" + sub + "/exact", "ns/op"},
		base: &metric{"BenchmarkLineDiff/" + sub + "/go-udiff", "ns/op"}, baseName: "go-udiff", target: 100e6, targetIs: "≤ 100 ms"}
}

// goplsRow is BenchmarkGopls's request through Trestle against the same
// request from a bare LSP client, interleaved in one run.
func goplsRow(request string) row {
	sub := "BenchmarkGopls/" + strings.Fields(request)[0]
	return row{label: "gopls through Trestle: " + request + " (bbolt)", value: metric{sub, "trestle-ms"},
		base: &metric{sub, "bare-ms"}, baseName: "bare LSP client", target: 5, targetIs: "≤ bare +10% or +5 ms"}
}

// renderTable formats rows as a Markdown table; a figure not measured
// (a skipped or failed benchmark) shows as "—".
func renderTable(rows []row, res results) string {
	var b strings.Builder
	b.WriteString("| figure | measured | baseline (same run) | ratio | target |\n| --- | --- | --- | --- | --- |\n")
	for _, r := range rows {
		v, ok := res.get(r.value.bench, r.value.unit)
		measured, base, ratio, target := "—", "", "", r.targetIs
		if ok {
			measured = format(v, r.value.unit)
			if p99, ok := res.get(r.value.bench, r.p99); ok {
				measured = fmt.Sprintf("%s (p99 %s)", measured, format(p99, r.p99))
			}
			if r.target > 0 || r.ratioTarget > 0 {
				target += verdict(r, v, res)
			}
		}
		if r.base != nil {
			bv, bok := baseline(r.base, res)
			base = r.baseName + " —"
			if bok {
				base = fmt.Sprintf("%s %s", r.baseName, format(bv, r.base.unit))
			}
			if ok && bok && bv > 0 {
				ratio = formatRatio(v / bv)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.label, measured, base, ratio, target)
	}
	return b.String()
}

// baseline is a baseline's value; the busy bound is the constant 2 s.
func baseline(m *metric, res results) (float64, bool) {
	if m == busyBound {
		return 2000, true
	}
	return res.get(m.bench, m.unit)
}

// verdict says whether v meets r's target; a target of "≤ 10× loopback"
// is checked on the ratio.
func verdict(r row, v float64, res results) string {
	if r.ratioTarget > 0 {
		bv, ok := baseline(r.base, res)
		if !ok || bv == 0 {
			return ""
		}
		if v/bv <= r.ratioTarget && (r.target == 0 || v <= r.target) {
			return ": met"
		}
		return ": **not met**"
	}
	if r.base != nil && r.base.unit == "bare-ms" { // gopls: at most 10% or 5 ms over the bare client
		bv, ok := baseline(r.base, res)
		if !ok {
			return ""
		}
		if v <= max(bv*1.1, bv+r.target) {
			return ": met"
		}
		return ": **not met**"
	}
	if r.base != nil && r.base.unit == loopbackP50.unit && r.base.bench == loopbackP50.bench {
		bv, ok := baseline(r.base, res)
		if !ok || bv == 0 {
			return ""
		}
		v = v / bv
	}
	if v <= r.target {
		return ": met"
	}
	return ": **not met**"
}

// format writes a value in its unit: durations scaled, MiB and ms as is.
func format(v float64, unit string) string {
	switch unit {
	case "ns/op":
		return formatDuration(time.Duration(v))
	case "p50-µs", "p99-µs", "bridge-p50-µs", "relay-p50-µs":
		return formatDuration(time.Duration(v * 1e3))
	case "busy-ms", "ms-past-deadline", "bound-ms", "trestle-ms", "bare-ms", "git-ms", "fyne-ms":
		return formatDuration(time.Duration(v * 1e6))
	case "window-MiB", "bridge-MiB", "headless-MiB", "gopls-MiB", "before-MiB", "peak-MiB", "after-MiB":
		return fmt.Sprintf("%.0f MiB", v)
	}
	if strings.HasSuffix(unit, "-B") { // bytes on the wire
		return formatBytes(v)
	}
	return fmt.Sprintf("%.3g %s", v, unit)
}

// formatBytes writes a byte count with thousands separated: 19,336 B.
func formatBytes(v float64) string {
	digits := fmt.Sprintf("%.0f", v)
	var b strings.Builder
	for i, r := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String() + " B"
}

func formatDuration(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= 100*time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/1e6) // a target of 200 ms is judged to 0.1 ms
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.0f ms", float64(d)/1e6)
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2f ms", float64(d)/1e6)
	case d >= 10*time.Microsecond:
		return fmt.Sprintf("%.0f µs", float64(d)/1e3)
	}
	return fmt.Sprintf("%.1f µs", float64(d)/1e3)
}

// formatRatio writes measured/baseline; below 1 it also says how many
// times faster.
func formatRatio(r float64) string {
	switch {
	case r >= 10:
		return fmt.Sprintf("%.0f×", r)
	case r >= 0.5:
		return fmt.Sprintf("%.2f×", r)
	}
	return fmt.Sprintf("%.2g× (%s× faster)", r, roundSig(1/r))
}

// roundSig writes x with two significant digits, without an exponent.
func roundSig(x float64) string {
	if x < 10 {
		return fmt.Sprintf("%.1f", x)
	}
	p := math.Pow(10, math.Floor(math.Log10(x))-1)
	return fmt.Sprintf("%.0f", math.Round(x/p)*p)
}

// machine describes where and when the run happened.
func machine(took time.Duration) string {
	cpu := cpuName // as go test names it
	if cpu == "" {
		cpu = cpuInfoModel()
	}
	return fmt.Sprintf("Run of %s: %d cores (%s), %s/%s, %s, load average %s at the start; the whole run took %s.\n",
		time.Now().Format("2006-01-02 15:04"), runtime.NumCPU(), cpu, runtime.GOOS, runtime.GOARCH,
		runtime.Version(), startLoad, took.Round(time.Second))
}

// startLoad is the 1-minute load average when the run began: other work
// on the machine inflates every figure, though less so the ratios.
var startLoad = loadAverage()

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

// cpuInfoModel is the first model name in /proc/cpuinfo.
func cpuInfoModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
		}
	}
	return "unknown CPU"
}
