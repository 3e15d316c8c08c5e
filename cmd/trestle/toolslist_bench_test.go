package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"trestle/app/lsp"
	"trestle/internal/testfix"
)

// The size of tools/list's answer as an agent reads it off the wire: every
// session hands it to the model, so its bytes are paid in tokens at every
// start (docs/performance.md, issues 23 and 24). gopls's own MCP server
// (`gopls mcp`, gopls v0.23.0 and later) on the same module is the
// baseline; BenchmarkIdleRSS reads the window's through `--mcp-attach`.

const toolsListLine = `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`

// BenchmarkToolsList reads tools/list from `trestle --mcp` and from
// `gopls mcp` on one copy of go.etcd.io/bbolt: headless-B and gopls-B are
// the answer lines' bytes (without the newline). Each iteration asks both
// again; the bytes do not change between iterations.
func BenchmarkToolsList(b *testing.B) {
	project := testfix.CopyBbolt(b)
	headless := startRawBridge(b, []string{"TRESTLE_CONFIG_DIR=" + b.TempDir(), "DISPLAY="}, "--mcp", project)
	initialize(b, headless)
	gopls := startGoplsMCP(b, project)
	if gopls != nil {
		initialize(b, gopls)
	}
	var trestle, bare int
	for b.Loop() {
		trestle = toolsListBytes(b, headless)
		if gopls != nil {
			bare = toolsListBytes(b, gopls)
		}
	}
	b.ReportMetric(float64(trestle), "headless-B")
	if gopls != nil {
		b.ReportMetric(float64(bare), "gopls-B")
	}
}

// initialize sends initialize, waits for its answer and says initialized,
// as an MCP client does before anything else (`gopls mcp` drops a request
// that comes before its answer to initialize).
func initialize(b *testing.B, br *rawBridge) {
	b.Helper()
	br.send(b, initLine)
	if m := br.recv(b); m["result"] == nil {
		b.Fatalf("initialize: %v (stderr: %s)", m, br.stderr.String())
	}
	br.send(b, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// toolsListBytes asks br for tools/list and returns the length of its
// answer line, skipping the notifications before it, less the test-hook
// tools (trestle_debug_*) that the end-to-end window serves and a shipped
// one does not: each tool's JSON as written, and its comma.
func toolsListBytes(b *testing.B, br *rawBridge) int {
	b.Helper()
	br.send(b, toolsListLine)
	for {
		line, err := br.stdout.ReadBytes('\n')
		if err != nil {
			b.Fatalf("tools/list: read stdout: %v (stderr: %s)", err, br.stderr.String())
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result *struct {
				Tools []json.RawMessage `json:"tools"`
			} `json:"result"`
		}
		if json.Unmarshal(line, &m) != nil || string(m.ID) != "2" {
			continue
		}
		if m.Result == nil || len(m.Result.Tools) == 0 {
			b.Fatalf("tools/list answered %.300s", line)
		}
		n := len(line) - 1
		for _, tool := range m.Result.Tools {
			var t struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(tool, &t) == nil && strings.HasPrefix(t.Name, "trestle_debug_") {
				n -= len(tool) + 1
			}
		}
		return n
	}
}

// startGoplsMCP runs `gopls mcp` over stdio in dir, or returns nil (the
// baseline is then left out) when gopls is missing or has no mcp command.
func startGoplsMCP(b *testing.B, dir string) *rawBridge {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	path, err := lsp.Find(ctx, "")
	if err != nil {
		b.Logf("no gopls mcp baseline: %v", err)
		return nil
	}
	if err := exec.Command(path, "mcp", "-instructions").Run(); err != nil {
		b.Logf("no gopls mcp baseline: %s mcp -instructions: %v (gopls v0.23.0 or later has it)", path, err)
		return nil
	}
	br := &rawBridge{stderr: &syncBuffer{}, done: make(chan error, 1)}
	br.cmd = exec.Command(path, "mcp")
	br.cmd.Dir = dir
	br.cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	br.cmd.Stderr = br.stderr
	if br.stdin, err = br.cmd.StdinPipe(); err != nil {
		b.Fatal(err)
	}
	out, err := br.cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	br.stdout = bufio.NewReader(out)
	if err := br.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	go func() { br.done <- br.cmd.Wait() }()
	b.Cleanup(func() { br.stdin.Close(); br.cmd.Process.Kill(); <-br.done })
	return br
}
