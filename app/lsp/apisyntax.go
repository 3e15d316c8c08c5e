package lsp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
)

// declSyntax is what a declaration's syntax says that gopls's
// package_symbols leaves out: a method's receiver as written (so a
// pointer method reads "func (*Bucket) Get"), a variable's or constant's
// type and value, and the doc comment.
type declSyntax struct {
	recv, detail, doc string
	isType            bool // a type declaration (gopls calls `type F func()` a function)
}

// maxValueLen bounds a constant's or variable's value in the API: a
// table or a long string literal is cut with an ellipsis.
const maxValueLen = 80

// parseDecls indexes the declarations of one file's text by the 1-based
// line of their name. A file that does not parse gives what it could.
func parseDecls(text string) map[int]declSyntax {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "", text, parser.ParseComments|parser.SkipObjectResolution)
	out := map[int]declSyntax{}
	if f == nil {
		return out
	}
	line := func(p token.Pos) int { return fset.Position(p).Line }
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			ds := declSyntax{doc: d.Doc.Text()}
			if d.Recv != nil && len(d.Recv.List) == 1 {
				ds.recv = types.ExprString(d.Recv.List[0].Type)
			}
			out[line(d.Name.Pos())] = ds
		case *ast.GenDecl:
			genDecl(d, line, out)
		}
	}
	return out
}

// genDecl indexes a type, var or const declaration and a struct's fields.
func genDecl(d *ast.GenDecl, line func(token.Pos) int, out map[int]declSyntax) {
	for _, spec := range d.Specs {
		doc := d.Doc
		switch s := spec.(type) {
		case *ast.TypeSpec:
			if s.Doc != nil || len(d.Specs) > 1 {
				doc = s.Doc
			}
			out[line(s.Name.Pos())] = declSyntax{doc: doc.Text(), isType: true}
			if st, ok := s.Type.(*ast.StructType); ok {
				for _, f := range st.Fields.List {
					for _, n := range f.Names {
						out[line(n.Pos())] = declSyntax{doc: fieldDoc(f)}
					}
				}
			}
		case *ast.ValueSpec:
			if s.Doc != nil || len(d.Specs) > 1 {
				doc = s.Doc
			}
			for i, n := range s.Names {
				out[line(n.Pos())] = declSyntax{doc: doc.Text(), detail: valueDetail(s, i)}
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
