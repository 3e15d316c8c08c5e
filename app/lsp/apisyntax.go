package lsp

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// declSyntax is what a declaration's syntax says that gopls's
// package_symbols leaves out: a method's receiver as written (so a
// pointer method reads "func (*Bucket) Get"), a generic function's or
// type's type parameters ("[S ~[]E, E any]"), a variable's or constant's
// type and value, and the doc comment.
type declSyntax struct {
	recv, tparams, detail, doc string
	isType                     bool // a type declaration (gopls calls `type F func()` a function)
}

// maxValueLen bounds a constant's or variable's value in the API: a
// table or a long string literal is cut with an ellipsis.
const maxValueLen = 80

// declKey is a declared name and the 1-based line it is declared on (a
// one-line struct declares its type and fields on one line).
type declKey struct {
	line int
	name string
}

// parseDecls indexes the declarations of one file's text by their name
// and its 1-based line. A file that does not parse gives what it could.
func parseDecls(text string) map[declKey]declSyntax {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "", text, parser.ParseComments|parser.SkipObjectResolution)
	out := map[declKey]declSyntax{}
	if f == nil {
		return out
	}
	line := func(n *ast.Ident) declKey { return declKey{fset.Position(n.Pos()).Line, n.Name} }
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			ds := declSyntax{doc: d.Doc.Text()}
			if d.Recv != nil && len(d.Recv.List) == 1 {
				ds.recv = types.ExprString(d.Recv.List[0].Type)
			}
			ds.tparams = typeParams(d.Type.TypeParams)
			out[line(d.Name)] = ds
		case *ast.GenDecl:
			genDecl(d, line, out)
		}
	}
	return out
}

// typeParams is a type parameter list as written, "[K comparable, V any]",
// or "" when there is none.
func typeParams(l *ast.FieldList) string {
	if l == nil || len(l.List) == 0 {
		return ""
	}
	var parts []string
	for _, f := range l.List {
		var names []string
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
		parts = append(parts, strings.Join(names, ", ")+" "+types.ExprString(f.Type))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// genDecl indexes a type, var or const declaration and a struct's fields.
// In a const group a spec without values repeats the previous type and
// values with its own iota (Go spec, Constant declarations).
func genDecl(d *ast.GenDecl, line func(*ast.Ident) declKey, out map[declKey]declSyntax) {
	var last *ast.ValueSpec // the const group's last spec with values
	for iota, spec := range d.Specs {
		doc := d.Doc
		switch s := spec.(type) {
		case *ast.TypeSpec:
			if s.Doc != nil || len(d.Specs) > 1 {
				doc = s.Doc
			}
			out[line(s.Name)] = declSyntax{doc: doc.Text(), isType: true, tparams: typeParams(s.TypeParams)}
			if st, ok := s.Type.(*ast.StructType); ok {
				for _, f := range st.Fields.List {
					for _, n := range f.Names {
						out[line(n)] = declSyntax{doc: fieldDoc(f)}
					}
				}
			}
		case *ast.ValueSpec:
			if s.Doc != nil || len(d.Specs) > 1 {
				doc = s.Doc
			}
			vs := s
			if d.Tok == token.CONST {
				if len(s.Values) > 0 {
					last = s
				} else if last != nil {
					vs = &ast.ValueSpec{Type: last.Type, Values: last.Values}
				}
			}
			for i, n := range s.Names {
				detail := valueDetail(vs, i)
				if d.Tok == token.CONST && i < len(vs.Values) {
					detail = constDetail(vs, i, iota)
				}
				out[line(n)] = declSyntax{doc: doc.Text(), detail: detail}
			}
		}
	}
}

func fieldDoc(f *ast.Field) string {
	if f.Doc != nil {
		return f.Doc.Text()
	}
	return f.Comment.Text()
}

// valueDetail is "T = v", "T" or "= v" for the i'th name of a var or
// const spec, as written.
func valueDetail(s *ast.ValueSpec, i int) string {
	var parts []string
	if s.Type != nil {
		parts = append(parts, types.ExprString(s.Type))
	}
	if i < len(s.Values) {
		v := types.ExprString(s.Values[i])
		if len([]rune(v)) > maxValueLen {
			v = string([]rune(v)[:maxValueLen]) + "…"
		}
		parts = append(parts, "= "+v)
	}
	return strings.Join(parts, " ")
}

// constDetail is valueDetail for a constant whose value uses iota: iota
// is replaced by the spec's index in its group, and the value is
// computed when the expression needs no other name ("Op = 16" for
// fsnotify's Chmod, written as a bare Chmod after Create Op = 1 << iota).
func constDetail(s *ast.ValueSpec, i, iota int) string {
	expr := types.ExprString(s.Values[i])
	if !usesIota(s.Values[i]) {
		return valueDetail(s, i)
	}
	expr = replaceIota(expr, iota)
	if tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, expr); err == nil && tv.Value != nil && tv.Value.Kind() != constant.Unknown {
		expr = tv.Value.String() // short, quoted form
		if tv.Value.Kind() == constant.Int {
			expr = tv.Value.ExactString()
		}
	}
	if len([]rune(expr)) > maxValueLen {
		expr = string([]rune(expr)[:maxValueLen]) + "…"
	}
	if s.Type != nil {
		return types.ExprString(s.Type) + " = " + expr
	}
	return "= " + expr
}

func usesIota(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "iota" {
			found = true
		}
		return !found
	})
	return found
}

// replaceIota is expr with each iota token replaced by n.
func replaceIota(expr string, n int) string {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	src := []byte(expr)
	sc.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	var b strings.Builder
	last := 0
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.IDENT && lit == "iota" {
			off := int(pos) - 1
			b.WriteString(expr[last:off])
			b.WriteString(strconv.Itoa(n))
			last = off + len(lit)
		}
	}
	b.WriteString(expr[last:])
	return b.String()
}
