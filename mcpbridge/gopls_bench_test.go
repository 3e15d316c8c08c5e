package mcpbridge

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"trestle/app/lsp"
	"trestle/app/project"
	"trestle/app/services"
	"trestle/internal/testfix"
)

// The gopls tools as an agent meets them in headless mode (`trestle
// --mcp`: an MCP client, the tool's handler, Trestle's gopls client and
// its own gopls), each beside the same question put by a bare LSP client
// to a second gopls on the same files, with the file open there. The two
// are interleaved call by call, so that the load of a shared machine
// falls on both alike; trestle-ms and bare-ms are their mean times and
// ratio the quotient (ns/op is the pair's and means nothing alone).

// BenchmarkGoplsHeadless is trestle_definition and trestle_references on
// a copy of go.etcd.io/bbolt against definition and references from a
// bare client that holds the file open.
func BenchmarkGoplsHeadless(b *testing.B) {
	root := testfix.CopyBbolt(b)
	c, bare := goplsBenchPair(b, root)
	def := testfix.TextPos(b, root, "db.go", "db.Begin(true)", 3)
	ref := testfix.TextPos(b, root, "tx.go", "Commit() (err error)", 0)
	bare.Open(b, "db.go")
	bare.Open(b, "tx.go")
	cases := []goplsBenchCase{
		{"definition",
			func() {
				mustTool(b, c, "trestle_definition", map[string]any{"path": "db.go", "line": def.Line + 1, "column": def.Character + 1})
			},
			func() { bare.Definition(b, "db.go", def) }},
		{"references",
			func() {
				mustTool(b, c, "trestle_references", map[string]any{"path": "tx.go", "line": ref.Line + 1, "column": ref.Character + 1})
			},
			func() { bare.References(b, "tx.go", ref) }},
	}
	runGoplsBench(b, cases)
}

// BenchmarkGoplsLargeFile is trestle_definition of a function declared in
// a file of 25,000 small functions, against the two requests the tool
// needs from gopls (the definition and the target file's outline, whose
// entry gives the declaration's extent) from a bare client.
func BenchmarkGoplsLargeFile(b *testing.B) {
	const funcs = 25000
	var big strings.Builder
	big.WriteString("package big\n")
	for i := range funcs {
		fmt.Fprintf(&big, "\n// F%d returns %d.\nfunc F%d() int { return %d }\n", i, i, i, i)
	}
	root := testfix.Project(b, map[string]string{
		"go.mod":     "module example.com/large\n\ngo 1.22\n",
		"big/big.go": big.String(),
		"main.go":    "package main\n\nimport \"example.com/large/big\"\n\nfunc main() {\n\tprintln(big.F24999())\n}\n",
	})
	c, bare := goplsBenchPair(b, root)
	call := testfix.TextPos(b, root, "main.go", "F24999", 0)
	bare.Open(b, "main.go")
	outline := map[string]any{"textDocument": map[string]string{"uri": "file://" + filepath.ToSlash(filepath.Join(root, "big/big.go"))}}
	runGoplsBench(b, []goplsBenchCase{{"definition",
		func() {
			text, _ := mustTool(b, c, "trestle_definition", map[string]any{"path": "main.go", "symbol": "big.F24999"})
			if !strings.HasPrefix(text, "big/big.go:") || strings.Count(text, "big/big.go:") != 1 {
				b.Fatalf("definition of big.F24999: %s", text)
			}
		},
		func() {
			bare.Definition(b, "main.go", call)
			bare.Call(b, "textDocument/documentSymbol", outline)
		}}})
}

type goplsBenchCase struct {
	name          string
	trestle, bare func()
}

// runGoplsBench warms both sides with one call each, then times each case
// interleaved.
func runGoplsBench(b *testing.B, cases []goplsBenchCase) {
	for _, tc := range cases {
		tc.trestle()
		tc.bare()
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			var tr, br time.Duration
			for b.Loop() {
				t0 := time.Now()
				tc.trestle()
				t1 := time.Now()
				tc.bare()
				tr, br = tr+t1.Sub(t0), br+time.Since(t1)
			}
			n := float64(b.N)
			b.ReportMetric(float64(tr.Microseconds())/1000/n, "trestle-ms")
			b.ReportMetric(float64(br.Microseconds())/1000/n, "bare-ms")
			b.ReportMetric(float64(tr)/float64(br), "ratio")
		})
	}
}

// goplsBenchPair is a headless server on root (with its own gopls) behind
// an MCP client, and a bare LSP client of a second gopls on root.
func goplsBenchPair(b *testing.B, root string) (*client.Client, *testfix.BareLSP) {
	b.Helper()
	path, err := lsp.Find(context.Background(), "")
	if err != nil {
		b.Skip(err)
	}
	proj, err := project.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	lc := lsp.New(lsp.Config{Root: proj.Root, Env: env, Logger: log.New(io.Discard, "", 0)})
	b.Cleanup(func() { lc.Close() })
	srv := NewServer(testAgent(proj, nil, services.Services{LSP: lc}), Options{Version: "bench", Logger: log.New(io.Discard, "", 0)})
	return connectStdio(b, srv, "bench"), testfix.NewBareLSP(b, path, proj.Root, env)
}

// mustTool calls a tool and fails the benchmark on an error result.
func mustTool(b *testing.B, c *client.Client, name string, args map[string]any) (string, map[string]any) {
	res, sc := callTool(b, c, name, args)
	if res.IsError {
		b.Fatalf("%s %v: %s", name, args, textOf(res))
	}
	return textOf(res), sc
}
