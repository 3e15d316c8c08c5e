package task

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
)

// maxLogScan is the largest test file logCalls parses to tell a log line
// from a failure; a larger one keeps all of a failed test's lines.
const maxLogScan = 4 << 20

// logCalls tells a test's log lines from its failures. go test prints
// t.Log and t.Error lines alike ("file_test.go:12: message"), and
// test2json (go test -json) does not tell them apart either, so the line
// each one names is read in the source: a line inside a Log, Logf, Skip or
// Skipf call is a log line, not a problem. A line the source does not show
// (a helper's caller, a file that changed or is gone) stays a problem. Not
// safe for concurrent use: the Run holds its lock.
type logCalls map[string]map[int]bool // absolute path -> lines of log calls

// isLog reports whether problem p (project-relative, in root) points at a
// log call.
func (c *logCalls) isLog(root string, p Problem) bool {
	path := filepath.FromSlash(p.Path)
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, path)
	}
	if *c == nil {
		*c = logCalls{}
	}
	lines, ok := (*c)[path]
	if !ok {
		lines = logLines(path)
		(*c)[path] = lines
	}
	return lines[p.Line]
}

// logLines parses the Go file at path and returns the lines that only log
// calls cover (a line that also holds an Error or Fatal call is not one:
// a t.Errorf inside a t.Log's arguments, say).
func logLines(path string) map[int]bool {
	if filepath.Ext(path) != ".go" {
		return nil
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() > maxLogScan {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if f == nil {
		return nil
	}
	_ = err // a partly parsed file still shows its calls
	logs, other := map[int]bool{}, map[int]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		var set map[int]bool
		switch sel.Sel.Name {
		case "Log", "Logf", "Skip", "Skipf":
			set = logs
		case "Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow":
			set = other
		default:
			return true
		}
		for l := fset.Position(call.Pos()).Line; l <= fset.Position(call.End()).Line; l++ {
			set[l] = true
		}
		return true
	})
	for l := range other {
		delete(logs, l)
	}
	return logs
}
