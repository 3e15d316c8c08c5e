package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/traefik/yaegi/extract"
)

// keysOf lists the string keys of the composite literals in a table
// (the map's, and the arrays' first fields).
func keysOf(t *testing.T, src []byte) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	var keys []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.KeyValueExpr:
			if lit, ok := n.Key.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				keys = append(keys, lit.Value)
			}
		case *ast.CompositeLit:
			if len(n.Elts) > 0 {
				if lit, ok := n.Elts[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					keys = append(keys, lit.Value)
				}
			}
		}
		return true
	})
	slices.Sort(keys)
	return keys
}

func TestStaticTableKeepsEverySymbol(t *testing.T) {
	for _, path := range []string{"strconv", "os", "math/bits"} { // constants, variables, functions, types, wrappers
		t.Run(path, func(t *testing.T) {
			var buf bytes.Buffer
			if _, err := (&extract.Extractor{Dest: "deps"}).Extract(path, path, &buf); err != nil {
				t.Fatal(err)
			}
			got := staticTable(buf.Bytes(), "x")
			if bytes.Equal(got, buf.Bytes()) {
				t.Fatalf("not rewritten:\n%s", got)
			}
			if want, have := keysOf(t, buf.Bytes()), keysOf(t, got); !slices.Equal(want, have) {
				t.Errorf("symbols differ: %d before, %d after", len(want), len(have))
			}
			if strings.Count(string(got), "reflect.ValueOf(") > 40 {
				t.Errorf("most values should have moved into static arrays:\n%s", got)
			}
		})
	}
}

func TestStaticTableLeavesOtherShapesAlone(t *testing.T) {
	src := []byte("package deps\n\nfunc init() { println() }\n")
	if got := staticTable(src, "x"); !bytes.Equal(got, src) {
		t.Errorf("changed:\n%s", got)
	}
}
