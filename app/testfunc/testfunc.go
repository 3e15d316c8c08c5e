package testfunc

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind is what go test calls a function by.
type Kind string

const (
	Test      Kind = "test"
	Benchmark Kind = "benchmark"
	Fuzz      Kind = "fuzz"
	Example   Kind = "example"
)

// Func is one function go test runs.
type Func struct {
	Name string
	Kind Kind
	Line int // its func keyword's line, 1-based
}

// At returns the function of a _test.go file that holds line (1-based) and
// that go test would run, or false. src is the file's text as the person
// sees it (unsaved edits included); it may not parse as a whole, in which
// case what did parse is used.
func At(filename string, src []byte, line int) (Func, bool) {
	if !strings.HasSuffix(filename, "_test.go") {
		return Func{}, false
	}
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if f == nil {
		return Func{}, false
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Body == nil {
			continue
		}
		start, end := fset.Position(fn.Pos()).Line, fset.Position(fn.End()).Line
		if line < start || line > end {
			continue
		}
		if k, ok := kindOf(fn); ok {
			return Func{Name: fn.Name.Name, Kind: k, Line: start}, true
		}
		return Func{}, false
	}
	return Func{}, false
}

// kindOf reports what go test runs fn as: TestX(t *testing.T),
// BenchmarkX(b *testing.B), FuzzX(f *testing.F) and ExampleX() whose names
// go on with an upper-case letter, a digit, '_' or nothing.
func kindOf(fn *ast.FuncDecl) (Kind, bool) {
	params := fn.Type.Params.List
	for _, c := range []struct {
		prefix, param string
		kind          Kind
	}{
		{"Test", "T", Test}, {"Benchmark", "B", Benchmark}, {"Fuzz", "F", Fuzz}, {"Example", "", Example},
	} {
		rest, ok := strings.CutPrefix(fn.Name.Name, c.prefix)
		if !ok || !goesOn(rest) {
			continue
		}
		if c.param == "" {
			return c.kind, len(params) == 0
		}
		return c.kind, len(params) == 1 && len(params[0].Names) <= 1 && isTestingPtr(params[0].Type, c.param)
	}
	return "", false
}

func goesOn(rest string) bool {
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

func isTestingPtr(e ast.Expr, name string) bool {
	star, ok := e.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == name
}

// Args are the go test arguments that run just fn in the package of the
// project-relative file rel: ["-run", "^TestX$", "./pkg"]. A benchmark
// runs with -bench and no tests, a fuzz target as its seed corpus.
func Args(rel string, fn Func) []string {
	pkg := "./" + path.Dir(rel)
	if path.Dir(rel) == "." {
		pkg = "."
	}
	exact := "^" + regexp.QuoteMeta(fn.Name) + "$"
	if fn.Kind == Benchmark {
		return []string{"-run", "^$", "-bench", exact, pkg}
	}
	return []string{"-run", exact, pkg}
}

// SyntaxError returns the first syntax error of a Go file's text, as
// "file:line:col: message", or nil when it parses.
func SyntaxError(filename string, src []byte) error {
	_, err := parser.ParseFile(token.NewFileSet(), filename, src, parser.SkipObjectResolution|parser.AllErrors)
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return list[0]
	}
	return err
}
