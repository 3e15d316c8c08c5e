package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"strings"
)

// staticTable rewrites a table as extract writes it, one map literal in
// one init function whose every value is a call (reflect.ValueOf(...)),
// into arrays that the compiler lays out as static data and three short
// loops that fill the same map. The compiler compiles a function of ten
// thousand calls slowly: golang.org/x/sys/unix's table took 6.4 s of CPU to
// compile as extract writes it and 0.2 s rewritten. The map the worker
// sees is the same. name makes the arrays' names unique in a package that
// holds several tables. A table of another shape is returned unchanged.
func staticTable(src []byte, name string) []byte {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return src
	}
	fn, assign, lit := findTable(f)
	if lit == nil {
		return src
	}
	expr := func(e ast.Expr) string {
		var b bytes.Buffer
		printer.Fprint(&b, fset, e)
		return b.String()
	}
	var consts, values, variables, kept strings.Builder
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return src
		}
		key := expr(kv.Key)
		switch arg, kind := tableValue(kv.Value); kind {
		case "const":
			c := arg.(*ast.CallExpr)
			fmt.Fprintf(&consts, "\t{%s, %s, %s},\n", key, expr(c.Args[0]), expr(c.Args[1]))
		case "value":
			fmt.Fprintf(&values, "\t{%s, %s},\n", key, expr(arg))
		case "variable":
			fmt.Fprintf(&variables, "\t{%s, %s},\n", key, expr(arg))
		default:
			fmt.Fprintf(&kept, "\t\t%s: %s,\n", key, expr(kv.Value))
		}
	}
	table := "table_" + name
	var out bytes.Buffer
	out.Write(src[:fset.Position(fn.Pos()).Offset])
	fmt.Fprintf(&out, "func init() {\n\tm := map[string]reflect.Value{\n%s\t}\n", kept.String())
	if consts.Len() > 0 {
		fmt.Fprintf(&out, "\tfor _, c := range %s_consts {\n\t\tm[c.name] = reflect.ValueOf(constant.MakeFromLiteral(c.lit, c.tok, 0))\n\t}\n", table)
	}
	fmt.Fprintf(&out, "\tfor _, v := range %s_values {\n\t\tm[v.name] = reflect.ValueOf(v.value)\n\t}\n", table)
	fmt.Fprintf(&out, "\tfor _, v := range %s_variables {\n\t\tm[v.name] = reflect.ValueOf(v.value).Elem()\n\t}\n", table)
	fmt.Fprintf(&out, "\t%s = m\n}\n\n", expr(assign.Lhs[0]))
	if consts.Len() > 0 {
		fmt.Fprintf(&out, "var %s_consts = [...]struct {\n\tname, lit string\n\ttok token.Token\n}{\n%s}\n\n", table, consts.String())
	}
	fmt.Fprintf(&out, "var %s_values = [...]struct {\n\tname string\n\tvalue any\n}{\n%s}\n\n", table, values.String())
	fmt.Fprintf(&out, "var %s_variables = [...]struct {\n\tname string\n\tvalue any\n}{\n%s}\n", table, variables.String())
	out.Write(src[fset.Position(fn.End()).Offset:])
	formatted, err := format.Source(out.Bytes())
	if err != nil {
		return src
	}
	return formatted
}

// findTable finds extract's init function, its one assignment and the map
// literal assigned.
func findTable(f *ast.File) (*ast.FuncDecl, *ast.AssignStmt, *ast.CompositeLit) {
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "init" || fn.Recv != nil || len(fn.Body.List) != 1 {
			continue
		}
		assign, ok := fn.Body.List[0].(*ast.AssignStmt)
		if !ok || len(assign.Lhs) != 1 || len(assign.Rhs) != 1 {
			continue
		}
		if lit, ok := assign.Rhs[0].(*ast.CompositeLit); ok {
			return fn, assign, lit
		}
	}
	return nil, nil, nil
}

// tableValue sorts one value of the map: reflect.ValueOf(constant.MakeFromLiteral(...))
// is "const" (arg the MakeFromLiteral call), reflect.ValueOf(&x).Elem() is
// "variable" (arg &x), reflect.ValueOf(x) is "value" (arg x); anything
// else "".
func tableValue(v ast.Expr) (ast.Expr, string) {
	call, ok := v.(*ast.CallExpr)
	if !ok {
		return nil, ""
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Elem" && len(call.Args) == 0 {
		if inner, ok := sel.X.(*ast.CallExpr); ok && isCall(inner, "reflect", "ValueOf", 1) {
			if u, ok := inner.Args[0].(*ast.UnaryExpr); ok && u.Op == token.AND {
				return u, "variable"
			}
		}
		return nil, ""
	}
	if !isCall(call, "reflect", "ValueOf", 1) {
		return nil, ""
	}
	if c, ok := call.Args[0].(*ast.CallExpr); ok && isCall(c, "constant", "MakeFromLiteral", 3) {
		if lit, ok := c.Args[2].(*ast.BasicLit); ok && lit.Value == "0" {
			return c, "const"
		}
		return nil, ""
	}
	return call.Args[0], "value"
}

// isCall reports whether c calls pkg.name with n arguments.
func isCall(c *ast.CallExpr, pkg, name string, n int) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name || len(c.Args) != n {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}
