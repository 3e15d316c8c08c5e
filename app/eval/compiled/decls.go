package compiled

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// decl is one package-level declaration of a compiled input: a func or
// method, one type or var spec, or a whole const group (kept whole so that
// iota keeps counting).
type decl struct {
	keys      []string // the names it declares; a method is "Recv.Name"
	kw        string   // "type " or "var " before a spec taken out of a group, else ""
	src       string   // the declaration (or spec) text
	line, col int      // where src starts in its input
	origin    string   // the /*line*/ file name of its input
	quals     map[string]bool
	idents    map[string]bool
	iterator  bool // a func whose signature is iterator-shaped (see iteratorShaped)
	isVar     bool // a var spec: its value is made again by every run (see history.go)
}

// declsOf turns one parsed declaration into decls.
func declsOf(w *wrapped, d ast.Decl) ([]decl, error) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		key := d.Name.Name
		if d.Recv != nil && len(d.Recv.List) == 1 {
			key = recvName(d.Recv.List[0].Type) + "." + key
		}
		if key == "main" {
			line, col := w.inputPos(w.offset(d.Name.Pos()) + w.prefix)
			return nil, fmt.Errorf("%d:%d: func main cannot be declared: the input's statements are main", line, col)
		}
		x := newDecl(w, d, []string{key}, "")
		x.iterator = iteratorShaped(d.Type)
		return []decl{x}, nil
	case *ast.GenDecl:
		return genDecls(w, d), nil
	}
	line, col := w.inputPos(w.offset(d.Pos()) + w.prefix)
	return nil, fmt.Errorf("%d:%d: this declaration cannot be evaluated", line, col)
}

// genDecls splits a type or var group into one decl per spec; a const
// group stays whole.
func genDecls(w *wrapped, d *ast.GenDecl) []decl {
	if d.Tok == token.CONST || !d.Lparen.IsValid() {
		var keys []string
		for _, s := range d.Specs {
			keys = append(keys, specNames(s)...)
		}
		x := newDecl(w, d, keys, "")
		x.isVar = d.Tok == token.VAR
		return []decl{x}
	}
	kw := d.Tok.String() + " "
	var out []decl
	for _, s := range d.Specs {
		x := newDecl(w, s, specNames(s), kw)
		x.isVar = d.Tok == token.VAR
		out = append(out, x)
	}
	return out
}

func newDecl(w *wrapped, n ast.Node, keys []string, kw string) decl {
	text, line, col := w.slice(n)
	x := decl{keys: keys, kw: kw, src: text, line: line, col: col, origin: inputFile}
	x.quals, x.idents = namesIn(n)
	return x
}

func specNames(s ast.Spec) []string {
	switch s := s.(type) {
	case *ast.TypeSpec:
		return []string{s.Name.Name}
	case *ast.ValueSpec:
		var names []string
		for _, n := range s.Names {
			if n.Name != "_" {
				names = append(names, n.Name)
			}
		}
		return names
	}
	return nil
}

// recvName is a method receiver's type name: T for T, *T, T[K] or *T[K].
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}

// namesIn collects the identifiers used as qualifiers (X in X.Sel) and
// every other identifier in n (not the Sel of a selector: a field or a
// package member is not a name of the file's).
func namesIn(n ast.Node) (quals, idents map[string]bool) {
	quals, idents = map[string]bool{}, map[string]bool{}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				quals[id.Name] = true
				return false
			}
			ast.Inspect(x.X, visit)
			return false
		case *ast.Field: // field and parameter names are not the file's names
			if x.Type != nil {
				ast.Inspect(x.Type, visit)
			}
			return false
		case *ast.Ident:
			idents[x.Name] = true
		}
		return true
	}
	ast.Inspect(n, visit)
	return quals, idents
}

// iteratorShaped reports whether a func's signature belongs to iteration
// over funcs, which the interpreter cannot run: a yield parameter
// (func(...) bool), or a result that is a func taking one, or iter.Seq or
// iter.Seq2.
func iteratorShaped(ft *ast.FuncType) bool {
	if ft.Params != nil && len(ft.Params.List) == 1 && isYield(ft.Params.List[0].Type) {
		return true
	}
	if ft.Results == nil {
		return false
	}
	for _, r := range ft.Results.List {
		if isSeqType(r.Type) {
			return true
		}
	}
	return false
}

// isYield: func(...) bool.
func isYield(e ast.Expr) bool {
	f, ok := e.(*ast.FuncType)
	if !ok || f.Results == nil || len(f.Results.List) != 1 {
		return false
	}
	id, ok := f.Results.List[0].Type.(*ast.Ident)
	return ok && id.Name == "bool"
}

// isSeqType: func(yield func(...) bool), iter.Seq[...] or iter.Seq2[...].
func isSeqType(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.FuncType:
		return x.Params != nil && len(x.Params.List) == 1 && isYield(x.Params.List[0].Type)
	case *ast.IndexExpr:
		return isIterSel(x.X)
	case *ast.IndexListExpr:
		return isIterSel(x.X)
	}
	return false
}

func isIterSel(e ast.Expr) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := s.X.(*ast.Ident)
	return ok && id.Name == "iter" && strings.HasPrefix(s.Sel.Name, "Seq")
}

// declSet is the declarations that carry over between compiled inputs.
// A declaration replaces the earlier ones that declare any of its names.
// As in GoNB (goexec.executeCellImpl), an input's set is committed only
// once its program built, so an input that does not compile changes nothing.
type declSet struct {
	decls   []decl
	imports []importDecl
}

// with returns the set with in's declarations and imports added, origin
// naming in's earlier ones for error messages once it is committed.
func (s declSet) with(in *input) declSet {
	next := declSet{}
	taken := map[string]bool{}
	for _, d := range in.decls {
		for _, k := range d.keys {
			taken[k] = true
		}
	}
	for _, d := range s.decls {
		if !anyTaken(d.keys, taken) {
			next.decls = append(next.decls, d)
		}
	}
	next.decls = append(next.decls, in.decls...)
	names := map[string]bool{}
	for _, i := range in.imports {
		names[i.local()] = true
	}
	for _, i := range s.imports {
		if !names[i.local()] {
			next.imports = append(next.imports, i)
		}
	}
	next.imports = append(next.imports, in.imports...)
	return next
}

func anyTaken(keys []string, taken map[string]bool) bool {
	for _, k := range keys {
		if taken[k] {
			return true
		}
	}
	return false
}

// committed renames the current input's file name to origin in every decl
// and import that still carries it, so errors in them later name their input.
func (s declSet) committed(origin string) declSet {
	out := declSet{decls: append([]decl(nil), s.decls...), imports: append([]importDecl(nil), s.imports...)}
	for i := range out.decls {
		if out.decls[i].origin == inputFile {
			out.decls[i].origin = origin
		}
	}
	for i := range out.imports {
		if out.imports[i].origin == inputFile || out.imports[i].origin == "" {
			out.imports[i].origin = origin
		}
	}
	return out
}

// declares reports whether a name is declared by the set (a func, type,
// var or const; methods do not count).
func (s declSet) declares(name string) bool {
	for _, d := range s.decls {
		for _, k := range d.keys {
			if k == name {
				return true
			}
		}
	}
	return false
}
