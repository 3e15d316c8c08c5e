package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"trestle/internal/testfix"

	"github.com/sourcegraph/jsonrpc2"
)

// bareClient is the baseline: the same requests written straight to a
// second gopls on the same module with nothing of Trestle's in between
// (no documents, no position conversion, no restart logic, the answer
// left as raw JSON).
type bareClient struct {
	conn  *jsonrpc2.Conn
	cmd   *exec.Cmd
	diags chan publishDiagnosticsParams
	// lastDiags is when gopls last published diagnostics (unix nanos).
	lastDiags atomic.Int64
}

func newBareClient(b testing.TB, root string, env []string) *bareClient {
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
	bc := &bareClient{cmd: cmd, diags: make(chan publishDiagnosticsParams, 64)}
	handle := func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		var p publishDiagnosticsParams
		if req.Method == "textDocument/publishDiagnostics" && req.Params != nil && json.Unmarshal(*req.Params, &p) == nil {
			bc.lastDiags.Store(time.Now().UnixNano())
			select {
			case bc.diags <- p:
			default:
			}
		}
		return nil, nil
	}
	bc.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(pipeRWC{out, in}, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(handle))
	b.Cleanup(func() { bc.conn.Close(); cmd.Process.Kill(); cmd.Wait() })
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := bc.conn.Call(ctx, "initialize", initializeParams(root), nil); err != nil {
		b.Fatal(err)
	}
	bc.conn.Notify(ctx, "initialized", struct{}{})
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

func (bc *bareClient) notify(b testing.TB, method string, params any) {
	if err := bc.conn.Notify(context.Background(), method, params); err != nil {
		b.Fatal(err)
	}
}

// open sends didOpen of root's file rel with its disk text.
func (bc *bareClient) open(b testing.TB, root, rel string) {
	text, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		b.Fatal(err)
	}
	bc.notify(b, "textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: fileURI(filepath.Join(root, rel)),
		LanguageID: "go", Version: 1, Text: string(text)}})
}

// settle waits until gopls has published no diagnostics for quiet, and
// drops the diagnostics it published before.
func (bc *bareClient) settle(quiet time.Duration) {
	for {
		for len(bc.diags) > 0 {
			<-bc.diags
		}
		left := quiet - time.Since(time.Unix(0, bc.lastDiags.Load()))
		if left <= 0 {
			return
		}
		time.Sleep(left)
	}
}

// waitDiags waits for gopls's diagnostics of uri at version that mention want.
func (bc *bareClient) waitDiags(b testing.TB, uri string, version int, want string) {
	timeout := time.After(time.Minute)
	for {
		select {
		case p := <-bc.diags:
			if p.URI == uri && p.Version == version && len(p.Diagnostics) > 0 && strings.Contains(p.Diagnostics[0].Message, want) {
				return
			}
		case <-timeout:
			b.Fatalf("bare client: no diagnostics mentioning %s for version %d", want, version)
		}
	}
}

// BenchmarkGopls compares each request through Trestle's client with the
// bare request to a second gopls on the same copy of go.etcd.io/bbolt,
// both warm, with the same files open. The two are interleaved request by
// request, so that the load of a shared machine falls on both alike:
// each iteration sends the request through both, Trestle first in even
// iterations and bare first in odd ones (whichever goes second meets the
// first's gopls still at work: its garbage collection, its analysis one
// second after an edit). The metrics are the median times (trestle-ms,
// bare-ms) and trestle-ms / bare-ms (ratio): a single stall of a loaded
// machine moves a mean of 30 by tens of milliseconds; ns/op is the
// pair's and means nothing alone. Run it with -count and benchstat.
//
// "diagnostics" is the time from an edit of an open file (a new
// undefined name at its end) to gopls's diagnostics for that version.
// Both gopls are let settle first (no diagnostics for quietAfterWarm):
// after the warm-up's edit each analyses the workspace, which took the
// first measured edit over a second at load 15.
func BenchmarkGopls(b *testing.B) {
	needGopls(b)
	root := testfix.CopyBbolt(b)
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
		return textDocumentPosition{TextDocument: uri(rel), Position: toProtocol(newLines(text(rel)), p)}
	}
	refs := referenceParams{textDocumentPosition: at("tx.go", decl)}
	for _, rel := range []string{"db.go", "tx.go"} { // as Trestle's requests keep them open (keepopen.go)
		bare.open(b, root, rel)
	}
	if err := c.Settle(ctxFor(b), 0); err != nil {
		b.Fatal(err)
	}
	edited, bareEdited := editLoop(b, c, bare, root, "bucket.go")
	cases := []struct {
		name    string
		trestle func() error
		bare    func()
	}{
		{"diagnostics", edited, bareEdited},
		{"hover", func() error { _, err := c.Hover(ctx, "db.go", call); return err }, func() { bare.call(b, "textDocument/hover", at("db.go", call)) }},
		{"definition", func() error { _, err := c.Definition(ctx, "db.go", call); return err }, func() { bare.call(b, "textDocument/definition", at("db.go", call)) }},
		{"references", func() error { _, err := c.References(ctx, "tx.go", decl, false); return err }, func() { bare.call(b, "textDocument/references", refs) }},
		{"completion", func() error { _, err := c.Completions(ctx, "db.go", dot); return err }, func() { bare.call(b, "textDocument/completion", at("db.go", dot)) }},
	}
	for _, tc := range cases { // warm both: the first request loads the module
		if err := tc.trestle(); err != nil {
			b.Fatal(err)
		}
		tc.bare()
	}
	if err := c.Settle(ctxFor(b), quietAfterWarm); err != nil {
		b.Fatal(err)
	}
	bare.settle(quietAfterWarm)
	b.Run("rss", func(b *testing.B) { // gopls's resident memory with bbolt loaded
		for b.Loop() {
		}
		b.ReportMetric(rssMiB(c.PID()), "gopls-MiB")
	})
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			var tr, br []time.Duration
			trestle := func() {
				t0 := time.Now()
				if err := tc.trestle(); err != nil {
					b.Fatal(err)
				}
				tr = append(tr, time.Since(t0))
			}
			bareOne := func() {
				t0 := time.Now()
				tc.bare()
				br = append(br, time.Since(t0))
			}
			for i := 0; b.Loop(); i++ {
				if i%2 == 0 {
					trestle()
					bareOne()
				} else {
					bareOne()
					trestle()
				}
			}
			mt, mb := median(tr), median(br)
			b.ReportMetric(float64(mt.Microseconds())/1000, "trestle-ms")
			b.ReportMetric(float64(mb.Microseconds())/1000, "bare-ms")
			b.ReportMetric(float64(mt)/float64(mb), "ratio")
		})
	}
}

// quietAfterWarm is how long both gopls must have published nothing before
// the timed requests: longer than gopls's diagnosticsDelay (1 s), after
// which it analyses the workspace an edit changed.
const quietAfterWarm = 2 * time.Second

// median is the middle of ds (the upper one of an even count).
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// editLoop opens rel in both clients and returns the two halves of one
// "diagnostics" step: each appends a fresh undefined name to rel and
// waits for gopls's diagnostic of it.
func editLoop(b *testing.B, c *Client, bare *bareClient, root, rel string) (trestle func() error, bareStep func()) {
	disk, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		b.Fatal(err)
	}
	uri := fileURI(filepath.Join(root, rel))
	changed := make(chan struct{}, 1)
	c.Listen(nil, func(path string) {
		if path == rel {
			select {
			case changed <- struct{}{}:
			default:
			}
		}
	})
	c.OpenDocument(rel, string(disk))
	version := 1
	bare.notify(b, "textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "go", Version: version, Text: string(disk)}})
	n := 0
	trestle = func() error {
		n++
		name := "undefinedTrestle" + strconv.Itoa(n) + "_"
		c.OpenDocument(rel, string(disk)+"\nvar _ = "+name+"\n")
		timeout := time.After(time.Minute)
		for {
			for _, d := range c.Diagnostics(rel) {
				if strings.Contains(d.Message, name) {
					return nil
				}
			}
			select {
			case <-changed:
			case <-timeout:
				return fmt.Errorf("no diagnostic mentioning %s", name)
			}
		}
	}
	bareStep = func() {
		version++
		name := "undefinedBare" + strconv.Itoa(version) + "_"
		bare.notify(b, "textDocument/didChange", didChangeParams{TextDocument: versionedID{URI: uri, Version: version},
			ContentChanges: []contentChange{{Text: string(disk) + "\nvar _ = " + name + "\n"}}})
		bare.waitDiags(b, uri, version, name)
	}
	return trestle, bareStep
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
