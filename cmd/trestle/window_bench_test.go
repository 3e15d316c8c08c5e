package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"trestle/app/lsp"
	"trestle/internal/testfix"
	"trestle/registry"
)

// Issue 24's figures of the window as a user meets it, each measured from
// this process beside its baseline in the same run: the gopls tools
// against a bare LSP client, the first answer of a UI tool after start
// against a minimal Fyne window, and the window's memory a minute after a
// load against its memory before the load.

// BenchmarkGoplsWindow is trestle_definition and trestle_references
// through the real bridge to a window on a copy of go.etcd.io/bbolt that
// has db.go and tx.go open in editors, each call beside the same request
// from a bare LSP client of a second gopls that holds both files open,
// interleaved call by call. trestle-ms and bare-ms are the mean times,
// ratio their quotient (ns/op is the pair's).
func BenchmarkGoplsWindow(b *testing.B) {
	gopls, err := lsp.Find(context.Background(), "")
	if err != nil {
		b.Skip(err)
	}
	offline(b)
	root := testfix.CopyBbolt(b)
	w := startWindow(b, root)
	c := w.attach(b, root, "bench-gopls")
	bare := testfix.NewBareLSP(b, gopls, root, os.Environ()) // offline set GOFLAGS and GOPROXY
	def := testfix.TextPos(b, root, "db.go", "db.Begin(true)", 3)
	ref := testfix.TextPos(b, root, "tx.go", "Commit() (err error)", 0)
	waitReady(b, c)
	for _, f := range []string{"db.go", "tx.go"} {
		bare.Open(b, f)
		if res, _ := callNotBusy(b, c, "trestle_open", map[string]any{"path": f}); res.IsError {
			b.Fatalf("trestle_open %s: %s", f, resultText(res))
		}
	}
	tool := func(name, path string, p testfix.LSPPos) func() {
		args := map[string]any{"path": path, "line": p.Line + 1, "column": p.Character + 1}
		return func() {
			if res, sc := callWait(b, c, name, args); res.IsError && sc["state"] != "busy" { // busy is timed, as a user waits it
				b.Fatalf("%s %v: %s", name, args, resultText(res))
			}
		}
	}
	runPairs(b, "bare", []benchPair{
		{"definition", tool("trestle_definition", "db.go", def), func() { bare.Definition(b, "db.go", def) }},
		{"references", tool("trestle_references", "tx.go", ref), func() { bare.References(b, "tx.go", ref) }},
	})
}

// benchPair is a figure and its baseline, each one call.
type benchPair struct {
	name          string
	trestle, base func()
}

// runPairs warms both sides of each pair with one call, then times each
// pair interleaved as a sub-benchmark: trestle-ms and <base>-ms are the
// mean times, ratio their quotient.
func runPairs(b *testing.B, base string, pairs []benchPair) {
	for _, p := range pairs {
		p.trestle()
		p.base()
	}
	for _, p := range pairs {
		b.Run(p.name, func(b *testing.B) {
			var tr, br time.Duration
			for b.Loop() {
				t0 := time.Now()
				p.trestle()
				t1 := time.Now()
				p.base()
				tr, br = tr+t1.Sub(t0), br+time.Since(t1)
			}
			reportPair(b, tr, br, base)
		})
	}
}

// reportPair reports two total times over b.N iterations as means in ms
// and their quotient.
func reportPair(b *testing.B, trestle, base time.Duration, baseName string) {
	n := float64(b.N)
	b.ReportMetric(float64(trestle.Microseconds())/1000/n, "trestle-ms")
	b.ReportMetric(float64(base.Microseconds())/1000/n, baseName+"-ms")
	b.ReportMetric(float64(trestle)/float64(base), "ratio")
}

// BenchmarkFirstUIAnswer is the time from starting `trestle DIR` to the
// first answer of a UI tool (trestle_workbench, which runs on the main
// goroutine), as an agent meets it: this process waits for the registry
// entry, connects to the window's port, greets it with the token,
// initializes and calls the tool until it is not busy. The baseline is a
// minimal Fyne window (testdata/minwindow) started the same way: the time
// from its start to its first answer from the main goroutine over a
// loopback connection. Both run under the same Xvfb, one after the other,
// each stopped before the next starts; one start of each is not timed
// (caches). trestle-ms and fyne-ms are the means, ratio their quotient.
func BenchmarkFirstUIAnswer(b *testing.B) {
	bin, minimal := trestleBin(b), minimalWindowBin(b)
	display := startXvfb(b)
	project := testProject(b)
	config := b.TempDir() // one config dir for every start: a user's store exists
	env := append(os.Environ(), "TRESTLE_CONFIG_DIR="+config, "DISPLAY="+display)
	trestle := func() time.Duration { return firstTrestleAnswer(b, bin, env, project, config) }
	fyne := func() time.Duration { return firstMinimalAnswer(b, minimal, env) }
	trestle()
	fyne()
	var tr, fr time.Duration
	for b.Loop() {
		tr += trestle()
		fr += fyne()
	}
	reportPair(b, tr, fr, "fyne")
}

// minimalWindowBin builds testdata/minwindow once.
var minimalWindow = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "trestle-minwindow-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "minwindow")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/minwindow").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./testdata/minwindow: %v\n%s", err, out)
	}
	return bin, nil
})

func minimalWindowBin(tb testing.TB) string {
	bin, err := minimalWindow()
	if err != nil {
		tb.Fatal(err)
	}
	return bin
}

// startStopped starts cmd and returns a func that stops it (SIGTERM, then
// SIGKILL after 5 s) and waits for it.
func startStopped(tb testing.TB, cmd *exec.Cmd) func() {
	tb.Helper()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	stop := func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}
	tb.Cleanup(stop)
	return stop
}

// firstTrestleAnswer starts the window and times its first UI answer.
func firstTrestleAnswer(b *testing.B, bin string, env []string, project, config string) time.Duration {
	b.Helper()
	cmd := exec.Command(bin, project)
	cmd.Env = env
	start := time.Now()
	stop := startStopped(b, cmd)
	defer stop()
	reg := registry.New(filepath.Join(config, "mcp"))
	var entry registry.Entry
	testfix.Wait(b, time.Minute, "the window's registry entry", func() bool {
		entries, _ := reg.Reap()
		for _, e := range entries {
			if e.PID == cmd.Process.Pid {
				entry = e
				return true
			}
		}
		return false
	})
	conn, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(entry.Port))
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	if _, err := registry.Greet(conn, entry.Token, false, time.Minute); err != nil {
		b.Fatal(err)
	}
	conn.SetDeadline(time.Now().Add(2 * time.Minute))
	r := bufio.NewReader(conn)
	rpc := func(id int, line string) map[string]any {
		if _, err := conn.Write([]byte(line + "\n")); err != nil {
			b.Fatal(err)
		}
		for {
			raw, err := r.ReadBytes('\n')
			if err != nil {
				b.Fatalf("read: %v", err)
			}
			var m map[string]any
			if json.Unmarshal(raw, &m) == nil && m["id"] == float64(id) {
				return m
			}
		}
	}
	rpc(1, initLine)
	conn.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	for id := 2; ; id++ {
		m := rpc(id, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"trestle_workbench","arguments":{}}}`, id))
		res, _ := m["result"].(map[string]any)
		if res == nil {
			b.Fatalf("trestle_workbench: %v", m)
		}
		if res["isError"] != true {
			return time.Since(start)
		}
		if sc, _ := res["structuredContent"].(map[string]any); sc["state"] != "busy" {
			b.Fatalf("trestle_workbench: %v", res)
		}
	}
}

// firstMinimalAnswer starts the minimal window and times its first answer
// from the main goroutine.
func firstMinimalAnswer(b *testing.B, bin string, env []string) time.Duration {
	b.Helper()
	cmd := exec.Command(bin)
	cmd.Env = env
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	stop := startStopped(b, cmd)
	defer stop()
	port, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatalf("the minimal window printed no port: %v", err)
	}
	conn, err := net.Dial("tcp", "127.0.0.1:"+strings.TrimSpace(port))
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(2 * time.Minute))
	if _, err := conn.Write([]byte("title\n")); err != nil {
		b.Fatal(err)
	}
	if _, err := bufio.NewReader(conn).ReadString('\n'); err != nil {
		b.Fatalf("the minimal window did not answer: %v", err)
	}
	return time.Since(start)
}

// BenchmarkRSSAfterLoad is the window's resident memory (VmRSS) a minute
// after a load ends, against its memory before the load: a window on a
// copy of go.etcd.io/bbolt with 8 agents attached, each through its own
// `trestle --mcp-attach`, idle for 2 s (before-MiB), then 500 mixed calls
// from each (reads, searches, file lists, trestle_workbench; peak-MiB is
// the most seen during the load), then a minute with no call, the agents
// still attached (after-MiB; ratio is after/before). after-15s-MiB is
// the same 15 s after the load: the window gives memory back once 10 s
// pass without a call after at least 100 (mcpbridge/memory.go).
func BenchmarkRSSAfterLoad(b *testing.B) {
	root := testfix.CopyBbolt(b)
	w := startWindow(b, root)
	var bridges []*rawBridge
	for i := range 8 {
		br := startRawBridge(b, w.env, "--mcp-attach", w.entry.Dir)
		br.send(b, strings.Replace(initLine, `"raw"`, fmt.Sprintf(`"load-%d"`, i), 1))
		br.recv(b)
		br.send(b, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		bridges = append(bridges, br)
	}
	pid := w.cmd.Process.Pid
	var before, peak, after15, after float64
	for b.Loop() {
		time.Sleep(2 * time.Second)
		before += vmRSS(b, pid)
		peak += loadAndPeak(b, bridges, pid, 500)
		time.Sleep(15 * time.Second)
		after15 += vmRSS(b, pid)
		time.Sleep(45 * time.Second)
		after += vmRSS(b, pid)
	}
	n := float64(b.N)
	b.ReportMetric(before/n, "before-MiB")
	b.ReportMetric(peak/n, "peak-MiB")
	b.ReportMetric(after15/n, "after-15s-MiB")
	b.ReportMetric(after/n, "after-MiB")
	b.ReportMetric(after/before, "ratio")
}

// loadAndPeak makes calls mixed calls through each bridge at once and
// returns the most VmRSS of pid seen meanwhile (sampled every 100 ms).
func loadAndPeak(b *testing.B, bridges []*rawBridge, pid, calls int) float64 {
	tools := []struct{ name, args string }{
		{"trestle_read", `{"path":"db.go"}`},
		{"trestle_search", `{"pattern":"func"}`},
		{"trestle_files", `{}`},
		{"trestle_workbench", `{}`},
	}
	errs := make(chan error, len(bridges))
	var wg sync.WaitGroup
	for c, br := range bridges {
		wg.Go(func() {
			for i := range calls {
				tool := tools[(i+c)%len(tools)]
				id := fmt.Sprintf("c%d-%d", c, i)
				fmt.Fprintf(br.stdin, `{"jsonrpc":"2.0","id":%q,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", id, tool.name, tool.args)
				line, err := br.stdout.ReadString('\n')
				failed := strings.Contains(line, `"isError":true`) && !strings.Contains(line, `"state":"busy"`) // busy is the UI's answer under load
				if err != nil || !strings.Contains(line, `"id":"`+id+`"`) || failed {
					errs <- fmt.Errorf("client %d call %d (%s): %v %.200s", c, i, tool.name, err, line)
					return
				}
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	peak := 0.0
	for tick := time.NewTicker(100 * time.Millisecond); ; {
		peak = max(peak, vmRSS(b, pid))
		select {
		case <-done:
			tick.Stop()
			close(errs)
			for err := range errs {
				b.Fatal(err)
			}
			return peak
		case <-tick.C:
		}
	}
}
