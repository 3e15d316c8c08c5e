package main

import (
	"bufio"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"trestle/internal/testfix"
)

// The spine's figures (docs/performance.md): a tools/call round trip
// through the real bridge to a non-UI tool and to a UI tool, against a bare
// loopback echo of a line of the same size measured in the same run.

// latencies records one duration per iteration and reports p50 and p99.
type latencies []time.Duration

func (l latencies) report(b *testing.B) {
	if len(l) == 0 {
		return
	}
	slices.Sort(l)
	b.ReportMetric(float64(l[len(l)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(l[len(l)*99/100].Microseconds()), "p99-µs")
}

func BenchmarkLoopbackEcho(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			c.Write(line)
		}
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	line := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"trestle_files","arguments":{"under":"pkg"}}}` + "\n")
	var lat latencies
	for b.Loop() {
		start := time.Now()
		c.Write(line)
		if _, err := r.ReadBytes('\n'); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	lat.report(b)
}

// waitReady calls trestle_workbench until the window answers it: a window
// just started is still building its panes and reading the project, and on
// a loaded machine a UI call meanwhile answers busy at its 2 s bound.
func waitReady(tb testing.TB, c *client.Client) {
	tb.Helper()
	if res, _ := callNotBusy(tb, c, "trestle_workbench", nil); res.IsError {
		tb.Fatalf("trestle_workbench: %s", resultText(res))
	}
}

// callNotBusy is callWait, repeated for two minutes while the tool answers
// busy (a UI call past its 2 s bound on a loaded machine).
func callNotBusy(tb testing.TB, c *client.Client, name string, args map[string]any) (res *mcp.CallToolResult, sc map[string]any) {
	tb.Helper()
	testfix.Wait(tb, 2*time.Minute, name+" answers (not busy)", func() bool {
		res, sc = callWait(tb, c, name, args)
		return sc["state"] != "busy"
	})
	return res, sc
}

func benchTool(b *testing.B, tool string, args map[string]any) {
	w := startWindow(b, testProject(b))
	c := w.attach(b, "", "bench")
	waitReady(b, c)
	if res, _ := call(b, c, tool, args); res.IsError {
		b.Fatal(resultText(res))
	}
	var lat latencies
	busy := 0
	for b.Loop() {
		start := time.Now()
		res, sc := call(b, c, tool, args)
		lat = append(lat, time.Since(start))
		switch {
		case res.IsError && sc["state"] == "busy":
			busy++ // the UI did not answer within its bound: a figure, in p99
		case res.IsError:
			b.Fatal(resultText(res))
		}
	}
	lat.report(b)
	b.ReportMetric(float64(busy), "busy-calls")
}

// BenchmarkBridgeNonUITool: trestle_files, which never touches the UI.
func BenchmarkBridgeNonUITool(b *testing.B) {
	benchTool(b, "trestle_files", map[string]any{"under": "pkg"})
}

// BenchmarkBridgeUITool: trestle_workbench, one bounded main-thread call on
// an idle window.
func BenchmarkBridgeUITool(b *testing.B) {
	benchTool(b, "trestle_workbench", nil)
}

// BenchmarkBridgeRawLine sends the tools/call line straight to the
// bridge's stdin and reads the reply line: the same path without the
// client library's own cost.
func BenchmarkBridgeRawLine(b *testing.B) {
	w := startWindow(b, testProject(b))
	br := startRawBridge(b, w.env, "--mcp-attach")
	br.send(b, initLine)
	br.recv(b)
	br.send(b, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	line := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"trestle_files","arguments":{"under":"pkg"}}}`
	var lat latencies
	for b.Loop() {
		start := time.Now()
		br.send(b, line)
		if m := br.recv(b); m["result"] == nil {
			b.Fatalf("reply %v", m)
		}
		lat = append(lat, time.Since(start))
	}
	lat.report(b)
}
