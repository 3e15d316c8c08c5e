package compiled

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The routing rule. An input runs compiled, without trying the
// interpreter, when go/ast shows one of:
//
//  1. an import of a standard package the interpreter has no usable symbols
//     for (unsupportedPackages: all generic, or new since its tables), or a
//     use of one of them or of an unsupported function (unsupportedFuncs:
//     generic, or Go 1.23+ iterator APIs such as strings.Lines);
//  2. a range over an integer, a func literal, or a func the input or an
//     earlier compiled input declares; or a func declaration whose
//     signature is iterator-shaped (a yield parameter, or an iter.Seq or
//     func(yield) result) — such funcs live in the compiled state, where
//     they can be ranged over;
//  3. a range over a call of a project package's function whose result is
//     iterator-shaped (read from the package's source with go/parser);
//  4. a use of a name an earlier compiled input declared, defined or
//     changed (history.go), or of a package only a compiled input imported;
//  5. what the interpreter would run but get wrong (Misread, misread.go):
//     a type, generic func or select case that assigns in the input, or a
//     project package the worker interprets that declares such things,
//     ranges over an integer or a func, or imports iter. A silent wrong
//     value is worse than a slower answer: these never reach yaegi.
//
// Anything else tries the interpreter first. Whether a range is over a func
// cannot be known from syntax alone, so an interpreter compile error that
// says it lacks a feature (see Unsupported) sends the input here as well.
var unsupportedPackages = map[string]bool{
	"iter": true, "slices": true, "maps": true, "cmp": true, "unique": true, "weak": true, "structs": true,
}

var unsupportedFuncs = map[string]map[string]bool{
	"strings": {"Lines": true, "SplitSeq": true, "SplitAfterSeq": true, "FieldsSeq": true, "FieldsFuncSeq": true},
	"bytes":   {"Lines": true, "SplitSeq": true, "SplitAfterSeq": true, "FieldsSeq": true, "FieldsFuncSeq": true},
	"sync":    {"OnceFunc": true, "OnceValue": true, "OnceValues": true},
	"reflect": {"TypeFor": true},
	"atomic":  {"Pointer": true},
}

// undefinedBuiltin is yaegi's error for a builtin newer than it.
var undefinedBuiltin = regexp.MustCompile(`undefined: (min|max|clear)\b`)

// Wants reports whether code should run compiled (see the rule above), and
// why, in words for a note. module is the project's module path, for rule 3.
func (s *Session) Wants(code, module string) (bool, string) {
	in, err := splitInput(code)
	if err != nil {
		return false, ""
	}
	s.mu.Lock()
	set, known := s.set, s.known
	owned := s.compiledOwned(in)
	ownedPkg := s.ownedPackage(in)
	s.mu.Unlock()
	imports := map[string]string{} // local name -> path, for this input
	for _, i := range append(append(append([]importDecl{}, known...), set.imports...), in.imports...) {
		imports[i.local()] = i.path
	}
	for _, i := range in.imports {
		if unsupportedPackages[i.path] {
			return true, "it imports " + strconv.Quote(i.path) + ", which the interpreter cannot run"
		}
	}
	iterFuncs := map[string]bool{}
	for _, d := range append(append([]decl{}, set.decls...), in.decls...) {
		if d.iterator && len(d.keys) == 1 {
			iterFuncs[d.keys[0]] = true
		}
	}
	for _, d := range in.decls {
		if d.iterator {
			return true, "it declares an iterator function (range over func), which the interpreter cannot run"
		}
	}
	nodes := inputNodes(in)
	for _, n := range nodes {
		if why := unsupportedUse(n, imports); why != "" {
			return true, why
		}
		if why := s.rangeOverFunc(n, iterFuncs, imports, module); why != "" {
			return true, why
		}
	}
	compiledOnly := map[string]bool{} // packages imported by compiled inputs only
	for _, i := range set.imports {
		compiledOnly[i.local()] = true
	}
	for _, i := range append(append([]importDecl{}, known...), in.imports...) {
		delete(compiledOnly, i.local())
	}
	if name := owned; name != "" {
		return true, "it uses " + name + ", which a compiled input defined or changed (the inputs that made it run again first)"
	}
	if ownedPkg != "" {
		return true, "it reaches " + ownedPkg + ", whose state a compiled input changed (the inputs that changed it run again first)"
	}
	defined := definedNames(in) // x := ... in the interpreter is the interpreter's own x
	for _, n := range nodes {
		quals, idents := namesIn(n)
		for q := range quals {
			if compiledOnly[q] {
				return true, "it uses the package " + q + ", which a compiled input imported"
			}
			// kept.Owner: a compiled var (or type) used through a selector
			if imports[q] == "" && set.declares(q) && !declaredBy(in, q) && !slices.Contains(defined, q) {
				return true, "it uses " + q + ", which an earlier compiled input declared"
			}
		}
		for name := range idents {
			if set.declares(name) && !declaredBy(in, name) && !slices.Contains(defined, name) {
				return true, "it uses " + name + ", which an earlier compiled input declared"
			}
		}
	}
	return false, ""
}

func declaredBy(in *input, name string) bool {
	for _, d := range in.decls {
		for _, k := range d.keys {
			if k == name {
				return true
			}
		}
	}
	return false
}

// inputNodes are the statements and declarations of in, parsed.
func inputNodes(in *input) []ast.Node {
	var nodes []ast.Node
	for _, st := range in.stmts {
		nodes = append(nodes, st.node)
	}
	for _, d := range in.decls {
		// declarations were parsed as parts of a file; parse their text again as a node
		if f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+d.kw+d.src, parser.SkipObjectResolution); err == nil {
			nodes = append(nodes, f)
		}
	}
	return nodes
}

// unsupportedUse finds a selector into an unsupported package or function.
func unsupportedUse(n ast.Node, imports map[string]string) string {
	why := ""
	ast.Inspect(n, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || why != "" {
			return why == ""
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		path := imports[id.Name]
		if path == "" {
			path = id.Name // a standard package imported in the interpreter: its name is its path
		}
		pkg := path[strings.LastIndexByte(path, '/')+1:]
		if unsupportedPackages[path] || unsupportedFuncs[pkg][sel.Sel.Name] && !strings.Contains(path, ".") {
			why = "it uses " + id.Name + "." + sel.Sel.Name + ", which the interpreter cannot run (generic, or newer than its standard library)"
		}
		return true
	})
	return why
}

// rangeOverFunc finds a range the interpreter cannot run (rules 2 and 3).
func (s *Session) rangeOverFunc(n ast.Node, iterFuncs map[string]bool, imports map[string]string, module string) string {
	why := ""
	ast.Inspect(n, func(n ast.Node) bool {
		r, ok := n.(*ast.RangeStmt)
		if !ok || why != "" {
			return why == ""
		}
		switch x := r.X.(type) {
		case *ast.BasicLit:
			if x.Kind == token.INT {
				why = "it ranges over an integer, which the interpreter cannot run"
			}
		case *ast.FuncLit:
			why = "it ranges over a func, which the interpreter cannot run"
		case *ast.Ident:
			if iterFuncs[x.Name] {
				why = "it ranges over the func " + x.Name + ", which the interpreter cannot run"
			}
		case *ast.CallExpr:
			why = s.rangeOverCall(x, iterFuncs, imports, module)
		}
		return true
	})
	return why
}

func (s *Session) rangeOverCall(call *ast.CallExpr, iterFuncs map[string]bool, imports map[string]string, module string) string {
	switch f := call.Fun.(type) {
	case *ast.Ident:
		if iterFuncs[f.Name] {
			return "it ranges over the iterator " + f.Name + " returns, which the interpreter cannot run"
		}
	case *ast.SelectorExpr:
		id, ok := f.X.(*ast.Ident)
		path := imports[idName(id, ok)]
		if ok && module != "" && (path == module || strings.HasPrefix(path, module+"/")) &&
			s.projectIterator(strings.TrimPrefix(strings.TrimPrefix(path, module), "/"), f.Sel.Name) {
			return "it ranges over the iterator " + id.Name + "." + f.Sel.Name + " returns, which the interpreter cannot run"
		}
	}
	return ""
}

func idName(id *ast.Ident, ok bool) string {
	if !ok {
		return ""
	}
	return id.Name
}

// projectIterator reports whether the project package in rel (a folder
// under the root) declares name as a function with an iterator-shaped
// signature. It reads the package's source with go/parser.
func (s *Session) projectIterator(rel, name string) bool {
	dir := filepath.Join(s.opts.Root, filepath.FromSlash(rel))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || e.IsDir() {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name && iteratorShaped(fd.Type) {
				return true
			}
		}
	}
	return false
}

// Unsupported reports whether an interpreter error says it lacks a
// feature that compiled Go has, so that the input runs compiled instead:
// a symbol its tables lack ("has no symbol", "undefined selector" on a
// package), a standard package it cannot load, or a range or type it
// cannot handle (range over func, "nil type", a CFG panic).
func Unsupported(errText string) bool {
	for _, s := range []string{"has no symbol", "range over func", "cannot range over", "nil type", "CFG post-order panic"} {
		if strings.Contains(errText, s) {
			return true
		}
	}
	// "undefined selector: slices.Sorted", or without the colon while it
	// imports a package ("undefined selector iter.Seq"): only on a
	// standard package, not on a value of the person's that lacks a field
	const undefSel = "undefined selector"
	if i := strings.Index(errText, undefSel); i >= 0 {
		pkg, _, found := strings.Cut(strings.TrimLeft(errText[i+len(undefSel):], ": "), ".")
		return found && (unsupportedPackages[pkg] || unsupportedFuncs[pkg] != nil)
	}
	// Go 1.21's builtins, which yaegi lacks: the name cannot be the
	// person's, or it would be defined
	if undefinedBuiltin.MatchString(errText) {
		return true
	}
	const missing = `unable to find source related to: "`
	if i := strings.Index(errText, missing); i >= 0 {
		path, _, _ := strings.Cut(errText[i+len(missing):], `"`)
		first, _, _ := strings.Cut(path, "/")
		return path != "" && !strings.Contains(first, ".") // a standard package
	}
	return false
}
