package lsp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// bareClient is the baseline: the same requests written straight to a
// second gopls on the same module with nothing of Trestle's in between
// (no documents, no position conversion, no restart logic, the answer
// left as raw JSON).
type bareClient struct {
	conn *jsonrpc2.Conn
	cmd  *exec.Cmd
}

func newBareClient(b *testing.B, root string, env []string) *bareClient {
	b.Helper()
	path, err := Find(context.Background(), "")
	if err != nil {
		b.Skip(err)
	}
	cmd := exec.Command(path)
	cmd.Dir, cmd.Env = root, env
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(pipeRWC{out, in}, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) { return nil, nil }))
	bc := &bareClient{conn: conn, cmd: cmd}
	b.Cleanup(func() { conn.Close(); cmd.Process.Kill(); cmd.Wait() })
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := conn.Call(ctx, "initialize", initializeParams(root), nil); err != nil {
		b.Fatal(err)
	}
	conn.Notify(ctx, "initialized", struct{}{})
	return bc
}

func (bc *bareClient) call(b *testing.B, method string, params any) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var raw json.RawMessage
	if err := bc.conn.Call(ctx, method, params, &raw); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkGopls compares each request through Trestle's client with the
// bare request to gopls, on a copy of go.etcd.io/bbolt, both warm.
func BenchmarkGopls(b *testing.B) {
	needGopls(b)
	root := copyBbolt(b)
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	c := newClient(b, root, Config{Env: env})
	bare := newBareClient(b, root, env)
	ctx := context.Background()
	call := posOf(b, root, "db.go", "db.Begin(true)", 0, 3)
	decl := posOf(b, root, "tx.go", "Commit() (err error)", 0, 0)
	dot := posOf(b, root, "db.go", "db.Begin(true)", 0, 3) // completion after "db."
	uri := func(rel string) textDocumentID { return textDocumentID{URI: fileURI(filepath.Join(root, rel))} }
	text := func(rel string) string { t, _ := c.text(rel); return t }
	at := func(rel string, p Position) textDocumentPosition {
		return textDocumentPosition{TextDocument: uri(rel), Position: toProtocol(text(rel), p)}
	}
	refs := referenceParams{textDocumentPosition: at("tx.go", decl)}
	cases := []struct {
		name    string
		trestle func() error
		method  string
		params  any
	}{
		{"hover", func() error { _, err := c.Hover(ctx, "db.go", call); return err }, "textDocument/hover", at("db.go", call)},
		{"definition", func() error { _, err := c.Definition(ctx, "db.go", call); return err }, "textDocument/definition", at("db.go", call)},
		{"references", func() error { _, err := c.References(ctx, "tx.go", decl, false); return err }, "textDocument/references", refs},
		{"completion", func() error { _, err := c.Completions(ctx, "db.go", dot); return err }, "textDocument/completion", at("db.go", dot)},
	}
	for _, tc := range cases { // warm both: the first request loads the module
		if err := tc.trestle(); err != nil {
			b.Fatal(err)
		}
		bare.call(b, tc.method, tc.params)
	}
	b.Run("rss", func(b *testing.B) { // gopls's resident memory with bbolt loaded
		for b.Loop() {
		}
		b.ReportMetric(rssMiB(c.PID()), "gopls-MiB")
	})
	for _, tc := range cases {
		b.Run(tc.name+"/trestle", func(b *testing.B) {
			for b.Loop() {
				if err := tc.trestle(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/bare", func(b *testing.B) {
			for b.Loop() {
				bare.call(b, tc.method, tc.params)
			}
		})
	}
}

// rssMiB is the VmRSS of process pid, in MiB (0 when unknown).
func rssMiB(pid int) float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}
