package compiled

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"
)

// File names of the /*line*/ directives: the current input is "input", so
// that an error reads as the interpreter's do (line:col of the input);
// declarations kept from earlier compiled inputs name their input.
const (
	inputFile     = "input"
	generatedFile = "trestle-generated"
	resultEnv     = "TRESTLE_COMPILED_RESULT"
	markEnv       = "TRESTLE_COMPILED_MARK" // what ends the replayed inputs' output (history.go)
)

// earlierFile names the n-th compiled input in positions.
func earlierFile(n int) string { return fmt.Sprintf("compiled-input-%d", n) }

// genOptions are the choices a rebuild can change (see Session.build).
type genOptions struct {
	noShow     bool            // the last expression has no value: run it as a statement
	allImports bool            // keep imports whose guessed name looks unused
	drop       map[string]bool // import paths the compiler said are unused
	version    string          // the toolchain's language version, for //go:build
}

// generate writes the program for one input over the accumulated set:
// imports that something uses, every declaration, and main with the
// input's statements. Each piece of the person's text is preceded by a
// /*line file:line:col*/ directive, so the compiler's positions, and a
// panic's stack, are those of the input. Every name a top-level statement
// defines gets a `_ = name` after the statements, so an unused variable
// does not fail the build (GoNB does the same).
func generate(set declSet, known []importDecl, in *input, o genOptions) string {
	var b strings.Builder
	if o.version != "" {
		// A file's //go:build version raises its language version over the
		// module's go line, so range over func works in a go 1.22 module.
		fmt.Fprintf(&b, "//go:build %s\n\n", o.version)
	}
	b.WriteString("package main\n\n")
	b.WriteString(helperImports)
	used := usedQualifiers(set, in)
	bound := map[string]bool{}
	for _, imp := range set.imports {
		bound[imp.local()] = true
		if keepImport(imp, used, o) {
			fmt.Fprintf(&b, "/*line %s:%d:%d*/%s\n", imp.origin, imp.line, imp.col, imp.source())
		}
	}
	for _, imp := range known { // imports of interpreted inputs, available when used
		if !bound[imp.local()] && used[imp.local()] && !o.drop[imp.path] && imp.name != "_" && imp.name != "." {
			bound[imp.local()] = true
			fmt.Fprintf(&b, "/*line %s:1:1*/%s\n", generatedFile, imp.source())
		}
	}
	// The helpers and main's own lines are the generator's, not the last
	// directive's input (a panic's position names the input's lines only).
	b.WriteString("\n//line " + generatedFile + ":1\n")
	b.WriteString(helperCode)
	b.WriteString(panicHelperCode)
	for _, d := range set.decls {
		fmt.Fprintf(&b, "%s/*line %s:%d:%d*/%s\n", d.kw, d.origin, d.line, d.col, d.src)
	}
	for _, e := range in.replay.entries { // an interpreted input's declarations
		for _, d := range e.decls {
			if !anyDeclared(set, d.keys) {
				fmt.Fprintf(&b, "%s/*line %s:%d:%d*/%s\n", d.kw, replayFile(e.n), d.line, d.col, d.src)
			}
		}
	}
	b.WriteString("\n//line " + generatedFile + ":1\nfunc main() {\n\tdefer __trestleDone()\n")
	writeReplay(&b, in.replay)
	_, hasLast := in.lastExpr()
	for i, st := range in.stmts {
		if hasLast && !o.noShow && i == len(in.stmts)-1 {
			fmt.Fprintf(&b, "\t__trestleShow(/*line %s:%d:%d*/%s)\n", inputFile, st.line, st.col, st.src)
			continue
		}
		fmt.Fprintf(&b, "/*line %s:%d:%d*/%s\n", inputFile, st.line, st.col, st.src)
	}
	if names := definedNames(in); len(names) > 0 {
		fmt.Fprintf(&b, "/*line %s:1:1*/", generatedFile)
		for _, n := range names {
			fmt.Fprintf(&b, "_ = %s; ", n)
		}
		b.WriteString("\n")
	}
	if len(in.replay.entries) > 0 {
		b.WriteString(strings.Repeat("}\n", len(in.replay.entries)+1))
	}
	b.WriteString("}\n")
	return b.String()
}

// replayFile names an earlier input that runs again in positions.
func replayFile(n int) string { return fmt.Sprintf("earlier-input-%d", n) }

// writeReplay writes the earlier inputs that run again first, each opening
// a block that holds the next ones and the input (history.go), then the
// mark that ends their hidden output.
func writeReplay(b *strings.Builder, r replayed) {
	if len(r.entries) == 0 {
		return
	}
	b.WriteString("\t__trestleReplaying = true\n")
	for _, e := range r.entries {
		fmt.Fprintf(b, "\t{ __trestleReplay = %d\n", e.n)
		for i, st := range e.stmts {
			if e.shown && i == len(e.stmts)-1 {
				if _, ok := st.node.(*ast.ExprStmt); ok {
					fmt.Fprintf(b, "\t__trestleDiscard(/*line %s:%d:%d*/%s)\n", replayFile(e.n), st.line, st.col, st.src)
					continue
				}
			}
			fmt.Fprintf(b, "/*line %s:%d:%d*/%s\n", replayFile(e.n), st.line, st.col, st.src)
		}
		if names := definedNames(&input{stmts: e.stmts}); len(names) > 0 {
			fmt.Fprintf(b, "/*line %s:1:1*/", generatedFile)
			for _, n := range names {
				fmt.Fprintf(b, "_ = %s; ", n)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\t__trestleReplayed()\n\t{\n") // the input's own block: it may define their names again
}

// anyDeclared reports whether the set declares one of keys.
func anyDeclared(set declSet, keys []string) bool {
	for _, k := range keys {
		if set.declares(k) {
			return true
		}
	}
	return false
}

// keepImport leaves out an import nothing uses, which the compiler refuses.
func keepImport(imp importDecl, used map[string]bool, o genOptions) bool {
	switch {
	case o.drop[imp.path]:
		return false
	case imp.name == "_" || imp.name == "." || o.allImports:
		return true
	}
	return used[imp.local()]
}

// usedQualifiers is every X of an X.Sel in the declarations and statements.
func usedQualifiers(set declSet, in *input) map[string]bool {
	used := map[string]bool{}
	for _, d := range set.decls {
		for q := range d.quals {
			used[q] = true
		}
	}
	for _, st := range in.stmts {
		q, _ := namesIn(st.node)
		for n := range q {
			used[n] = true
		}
	}
	for _, e := range in.replay.entries {
		for _, st := range e.stmts {
			q, _ := namesIn(st.node)
			for n := range q {
				used[n] = true
			}
		}
		for _, d := range e.decls {
			for q := range d.quals {
				used[q] = true
			}
		}
	}
	return used
}

// definedNames are the names := defines in main's top level, in order.
func definedNames(in *input) []string {
	var names []string
	for _, st := range in.stmts {
		a, ok := st.node.(*ast.AssignStmt)
		if !ok || a.Tok != token.DEFINE {
			continue
		}
		for _, l := range a.Lhs {
			if id, ok := l.(*ast.Ident); ok && id.Name != "_" && !slices.Contains(names, id.Name) {
				names = append(names, id.Name)
			}
		}
	}
	return names
}

// helperImports and helperCode report the last expression's value and a
// panic back to the Session through the file named by resultEnv. Their
// names start with __trestle so that they cannot meet the person's.
const helperImports = `import __trestle_json "encoding/json"
import __trestle_fmt "fmt"
import __trestle_math "math"
import __trestle_os "os"
import __trestle_reflect "reflect"
import __trestle_runtime "runtime"
import __trestle_strconv "strconv"
import __trestle_strings "strings"
import __trestle_unsafe "unsafe"
`

const helperCode = `
var __trestleResult struct {
	Value string ` + "`json:\"value,omitempty\"`" + `
	Type  string ` + "`json:\"type,omitempty\"`" + `
	Error string ` + "`json:\"error,omitempty\"`" + `
}

func __trestleShow(vs ...any) {
	var vals, types []string
	for _, v := range vs {
		var s string
		switch x := v.(type) {
		case string:
			s = __trestle_strconv.Quote(x)
		case error:
			s = __trestle_fmt.Sprintf("%v", x)
		default:
			s = __trestle_fmt.Sprintf("%+v", x)
		}
		if len(s) > 64<<10 {
			s = s[:64<<10] + __trestle_fmt.Sprintf("… (%d more bytes)", len(s)-64<<10)
		}
		vals, types = append(vals, s), append(types, __trestle_fmt.Sprintf("%T", v))
	}
	__trestleResult.Value = __trestle_strings.Join(vals, ", ")
	__trestleResult.Type = __trestle_strings.Join(types, ", ")
	if len(types) != 1 {
		__trestleResult.Type = "(" + __trestleResult.Type + ")"
	}
}

// __trestleReplaying is true while earlier inputs run again (history.go),
// __trestleReplay the one running.
var __trestleReplaying bool
var __trestleReplay int

func __trestleDiscard(...any) {}

// __trestleReplayed ends the replay: the output so far was the earlier
// inputs', which the Session drops up to the mark.
func __trestleReplayed() {
	__trestleReplaying = false
	__trestle_os.Stdout.WriteString(__trestle_os.Getenv("` + markEnv + `"))
}

func __trestleDone() {
	if r := recover(); r != nil || __trestlePanicking() {
		__trestleResult.Error = __trestlePanicReport(r) + __trestleWhere() + __trestleFrames()
		if __trestleReplaying {
			__trestleResult.Error = __trestle_fmt.Sprintf("while earlier input %d ran again (to rebuild the state this input uses), %s", __trestleReplay, __trestleResult.Error)
		}
	}
	b, _ := __trestle_json.Marshal(__trestleResult)
	__trestle_os.WriteFile(__trestle_os.Getenv("` + resultEnv + `"), b, 0o600)
}

// __trestleFrames is the panicking goroutine's stack as go run shows it,
// without the runtime's frames and the evaluator's, when a frame of a
// package (the project's, a dependency's, the standard library's) is on
// it; "" when the panic is the input's own.
func __trestleFrames() string {
	pcs := make([]uintptr, 64)
	frames := __trestle_runtime.CallersFrames(pcs[:__trestle_runtime.Callers(3, pcs)])
	var b __trestle_strings.Builder
	outside := false
	for {
		f, more := frames.Next()
		fn := f.Function
		if fn != "" && !__trestle_strings.HasPrefix(fn, "runtime.") && !__trestle_strings.HasPrefix(fn, "main.__trestle") {
			if !__trestle_strings.HasPrefix(fn, "main.") {
				outside = true
			}
			__trestle_fmt.Fprintf(&b, "%s(...)\n\t%s:%d\n", fn, f.File, f.Line)
		}
		if !more {
			break
		}
	}
	if !outside {
		return ""
	}
	return "\n\ngoroutine 1 [running]:\n" + __trestle_strings.TrimSuffix(b.String(), "\n")
}

// __trestleWhere names the input line that panicked.
func __trestleWhere() string {
	pcs := make([]uintptr, 64)
	frames := __trestle_runtime.CallersFrames(pcs[:__trestle_runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		if f.File == "` + inputFile + `" {
			return __trestle_fmt.Sprintf(" (at input line %d)", f.Line)
		}
		if __trestle_strings.HasPrefix(f.File, "earlier-input-") {
			return __trestle_fmt.Sprintf(" (at its line %d)", f.Line)
		}
		if !more {
			return ""
		}
	}
}
`
