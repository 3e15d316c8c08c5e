package testfix

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// LSPPos is a protocol position (0-based line, UTF-16 column).
type LSPPos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// TextPos is the position skip bytes into the first needle in rel under
// root (an ASCII file, so bytes are UTF-16 units).
func TextPos(tb testing.TB, root, rel, needle string, skip int) LSPPos {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		tb.Fatal(err)
	}
	i := strings.Index(string(data), needle)
	if i < 0 {
		tb.Fatalf("%s has no %q", rel, needle)
	}
	i += skip
	line := strings.Count(string(data[:i]), "\n")
	return LSPPos{Line: line, Character: i - (strings.LastIndex(string(data[:i]), "\n") + 1)}
}

// BareLSP is the baseline of the gopls benchmarks: requests written
// straight to a gopls of its own, nothing in between, the answers left as
// raw JSON.
type BareLSP struct {
	root string
	conn *jsonrpc2.Conn
}

// NewBareLSP starts the gopls at path on root with env and initializes it;
// it is stopped when tb ends.
func NewBareLSP(tb testing.TB, path, root string, env []string) *BareLSP {
	tb.Helper()
	cmd := exec.Command(path)
	cmd.Dir, cmd.Env = root, env
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	handle := func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) { return nil, nil }
	conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(pipePair{out, in}, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(handle))
	tb.Cleanup(func() { conn.Close(); cmd.Process.Kill(); cmd.Wait() })
	bl := &BareLSP{root: root, conn: conn}
	uri := bl.URI("")
	bl.Call(tb, "initialize", map[string]any{"processId": nil, "rootUri": uri,
		"workspaceFolders": []map[string]string{{"uri": uri, "name": "project"}},
		"capabilities":     map[string]any{"textDocument": map[string]any{"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true}}}})
	conn.Notify(context.Background(), "initialized", struct{}{})
	return bl
}

// URI is the file URI of rel under the root.
func (bl *BareLSP) URI(rel string) string {
	return "file://" + filepath.ToSlash(filepath.Join(bl.root, rel))
}

// At is the textDocument/position parameters for p in rel.
func (bl *BareLSP) At(rel string, p LSPPos) map[string]any {
	return map[string]any{"textDocument": map[string]string{"uri": bl.URI(rel)}, "position": p}
}

// Open sends didOpen with rel's text from disk.
func (bl *BareLSP) Open(tb testing.TB, rel string) {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(bl.root, rel))
	if err != nil {
		tb.Fatal(err)
	}
	if err := bl.conn.Notify(context.Background(), "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": bl.URI(rel), "languageId": "go", "version": 1, "text": string(data)}}); err != nil {
		tb.Fatal(err)
	}
}

// Call sends a request and waits up to two minutes for its answer.
func (bl *BareLSP) Call(tb testing.TB, method string, params any) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var raw json.RawMessage
	if err := bl.conn.Call(ctx, method, params, &raw); err != nil {
		tb.Fatalf("bare %s: %v", method, err)
	}
}

// Definition and References are the two requests the gopls tools are
// measured against.
func (bl *BareLSP) Definition(tb testing.TB, rel string, p LSPPos) {
	bl.Call(tb, "textDocument/definition", bl.At(rel, p))
}

func (bl *BareLSP) References(tb testing.TB, rel string, p LSPPos) {
	bl.Call(tb, "textDocument/references", map[string]any{"textDocument": map[string]string{"uri": bl.URI(rel)},
		"position": p, "context": map[string]bool{"includeDeclaration": false}})
}

type pipePair struct {
	r io.ReadCloser
	w io.WriteCloser
}

func (p pipePair) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipePair) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipePair) Close() error                { p.w.Close(); return p.r.Close() }
