package eval

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"trestle/app/eval/workerbuild"
)

// A panic that go run of the same code raises too is the program's, never
// a reason to compile a package in (compile.go): compiling it in changes
// nothing of the panic, loses the package's unexported names and generic
// API, and the choice is kept for the next start. yaegi runs Go through
// reflect, so the program's own runtime errors reach the worker in
// reflect's words ("reflect: slice index out of range"), which are also
// the words of the interpreter's own failures; what tells them apart is
// where the panic was raised and what Go says there:
//   - inside linked code (the standard library, a dependency, a native
//     project package): the worker appends that code's frames
//     (panicFrames), and the interpreter only called it;
//   - a runtime error of Go: what goErrorText words as Go's (an index out
//     of range, a nil pointer, a nil map, a division by zero...);
//   - at a call of the builtin panic (the program's panic value, whatever
//     it says: panic("nil type") is the program's; in the input itself,
//     whose positions are its wrapper's, an input that calls panic), or
//     at a call into a package the worker links (reflect.ValueOf(v).Field(9)
//     panics inside reflect, as it does under go run), except
//     reflect.Value.Call's own complaints about the arguments the
//     interpreter passed.

// interpreterCallPanic are reflect.Value.Call's panics about the
// arguments it was given: the interpreter made the call, so they are its.
var interpreterCallPanic = regexp.MustCompile(`^panic: reflect: Call (using|with)`)

// linkedFrames is what panicFrames appends to a panic raised in linked code.
const linkedFrames = "\n\ngoroutine 1 [running]:"

// programsOwnPanic reports whether an interpreted input's panic is the
// program's own (see above). errText is the answer's error as the worker
// gave it, trace the interpreter's trace lines (innermost first), code
// the input, plan the selection's build plan and native the packages the
// worker links outside the standard library.
func programsOwnPanic(errText, trace, code string, plan *workerbuild.Plan, native []string) bool {
	if !strings.HasPrefix(errText, "panic: ") {
		return false
	}
	if strings.Contains(errText, linkedFrames) {
		return true
	}
	first, _, _ := strings.Cut(errText, "\n")
	if goErrorText(first, "") != first || strings.HasPrefix(first, "panic: runtime error: ") {
		return true
	}
	file, line, col, ok := panicSite(trace)
	if !ok {
		return false
	}
	linked := func(path string) bool {
		elem, _, _ := strings.Cut(path, "/")
		return !strings.Contains(elem, ".") || slices.Contains(native, path)
	}
	if file == "" { // raised in the input itself, whose positions are its wrapper's
		return callsPanic(code)
	}
	kind := callAt(projectFile(file, plan), line, col, linked)
	return kind == callPanic || kind == callLinked && !interpreterCallPanic.MatchString(first)
}

// callsPanic reports whether code calls the builtin panic (panic( not
// after a dot), outside comments and strings.
func callsPanic(code string) bool {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("input", -1, len(code)), []byte(code), nil, 0)
	var prev, prev2 token.Token
	var lit string
	for {
		_, tok, l := sc.Scan()
		if tok == token.EOF {
			return false
		}
		if tok == token.LPAREN && prev == token.IDENT && lit == "panic" && prev2 != token.PERIOD {
			return true
		}
		prev2, prev, lit = prev, tok, l
	}
}

// traceSite is a line of the interpreter's trace: a project file's
// position or the input's ("4:1: panic: main(...)").
var traceSite = regexp.MustCompile(`^(?:(.*\.go):)?(\d+):(\d+): panic: `)

// panicSite is where the panic was raised: the trace's first (innermost)
// line; file is "" for the input.
func panicSite(trace string) (file string, line, col int, ok bool) {
	first, _, _ := strings.Cut(trace, "\n")
	m := traceSite.FindStringSubmatch(first)
	if m == nil {
		return "", 0, 0, false
	}
	line, _ = strconv.Atoi(m[2])
	col, _ = strconv.Atoi(m[3])
	return m[1], line, col, true
}

// projectFile is the project's own copy of a file of the worker's GOPATH
// tree (".../src/<import path>/<file>.go"), where the plan knows the
// package's folder; else the file itself (the tree lives as long as the
// worker).
func projectFile(file string, plan *workerbuild.Plan) string {
	i := strings.LastIndex(file, "/src/")
	if i < 0 || plan == nil {
		return file
	}
	pkg, base := filepath.Split(file[i+len("/src/"):])
	for _, p := range plan.Packages {
		if p.Path == strings.TrimSuffix(pkg, "/") && p.Dir != "" {
			return filepath.Join(p.Dir, base)
		}
	}
	return file
}

// Kinds of call at a panic's site.
const (
	callNone   = iota
	callPanic  // the builtin panic
	callLinked // a function or method reached from a linked package's name
)

// callAt says what call starts at line:col of the Go file path: the
// builtin panic, a call into a package that linked reports linked
// (pkg.F(...), pkg.F(...).M(...)), or neither (or the file does not parse).
func callAt(path string, line, col int, linked func(string) bool) int {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return callNone
	}
	imports := map[string]string{} // local name → path
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		name := filepath.Base(path)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		imports[name] = path
	}
	kind := callNone
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || kind != callNone {
			return kind == callNone
		}
		if p := fset.Position(call.Pos()); p.Line != line || p.Column != col {
			return true
		}
		if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
			kind = callPanic
		} else if root := rootName(call.Fun); root != "" && imports[root] != "" && linked(imports[root]) {
			kind = callLinked
		}
		return true
	})
	return kind
}

// rootName is the name a chain of selectors, calls, indexes and literals
// starts from: "reflect" for reflect.ValueOf(v).Field and reflect.Value{}.Interface.
func rootName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			e = x.X
		case *ast.CallExpr:
			e = x.Fun
		case *ast.IndexExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.TypeAssertExpr:
			e = x.X
		case *ast.CompositeLit:
			e = x.Type
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// A stack overflow kills the worker. Go raises it too for the program's
// endless recursion (func F(n int) int { return F(n + 1) }), which the
// interpreter runs as interpreted calls: its run loop (runCfg) repeats in
// the frames of the goroutine that overflowed. The interpreter's own
// overflows (jsonschema's recursive types sent its type checker round in
// circles while it imported the package) go round in its compiler.

// interpRunLoop is the interpreter's run loop in a goroutine's frames.
const interpRunLoop = "github.com/traefik/yaegi/interp.runCfg("

// programOverflow reports whether the worker's stderr starts with a stack
// overflow of a goroutine that was running interpreted code.
func (w *tailWriter) programOverflow() bool {
	w.mu.Lock()
	head := string(w.head)
	w.mu.Unlock()
	_, dump, ok := strings.Cut(head, "fatal error: stack overflow\n")
	if !ok {
		return false
	}
	// The runtime's own stack comes first ("runtime stack:"), then the
	// goroutine that overflowed ("goroutine 1 gp=... [running]:").
	_, frames, ok := strings.Cut(dump, "\ngoroutine ")
	frames, _, _ = strings.Cut(frames, "\n\n")
	return ok && strings.Contains(frames, interpRunLoop)
}

// programOverflowError is the worker's death by the program's own stack
// overflow (programOverflow): go run dies of it too.
type programOverflowError struct{ error }

func (e programOverflowError) Unwrap() error { return e.error }
