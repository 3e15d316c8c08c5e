package compiled

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// What the interpreter gets wrong inside a func body (see misread.go):
// deferred arguments evaluated late, recovered values, loop variables
// captured by func literals and deferred calls.

// lateDeferArg finds a deferred call in body (not in its func literals)
// whose arguments, or receiver, may have another value when the call runs
// than at the defer statement: yaegi evaluates them when the deferred call
// runs (defer func(v int) { r = v }(x); x = 5 gave 5 where Go gives the x
// of the defer). It returns the argument's text, or "". An argument is
// taken to keep its value when it is a constant, a func literal, an
// address, or made of names that nothing in body assigns, increments or
// takes the address of after the defer (anywhere, for a defer in a loop;
// by name, as history.go goes: a field a method changes is not seen); a
// call (time.Now()) never is.
func lateDeferArg(body *ast.BlockStmt) string {
	changes := map[string][]token.Pos{} // where each name is changed
	note := func(e ast.Expr, at token.Pos) {
		if name := baseIdent(e); name != "" {
			changes[name] = append(changes[name], at)
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, l := range n.Lhs {
					note(l, n.Pos())
				}
			}
		case *ast.IncDecStmt:
			note(n.X, n.Pos())
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				note(n.X, n.Pos())
			}
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if e != nil {
						note(e, n.Pos())
					}
				}
			}
		}
		return true
	})
	found := ""
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if _, lit := n.(*ast.FuncLit); lit || found != "" {
			return false
		}
		if d, ok := n.(*ast.DeferStmt); ok {
			inLoop := slices.ContainsFunc(stack, func(a ast.Node) bool {
				_, f := a.(*ast.ForStmt)
				_, r := a.(*ast.RangeStmt)
				return f || r
			})
			changed := map[string]bool{}
			for name, at := range changes {
				changed[name] = inLoop || slices.ContainsFunc(at, func(p token.Pos) bool { return p > d.Pos() })
			}
			for _, a := range d.Call.Args {
				if !keepsValue(a, changed) {
					found = types.ExprString(a)
				}
			}
			if sel, ok := d.Call.Fun.(*ast.SelectorExpr); ok && !keepsValue(sel.X, changed) {
				found = types.ExprString(sel.X)
			}
		}
		stack = append(stack, n)
		return found == ""
	})
	return found
}

// keepsValue reports whether e has the same value whenever it is
// evaluated, given the names changed (see lateDeferArg).
func keepsValue(e ast.Expr, changed map[string]bool) bool {
	switch x := e.(type) {
	case *ast.BasicLit, *ast.FuncLit:
		return true
	case *ast.Ident:
		return !changed[x.Name]
	case *ast.ParenExpr:
		return keepsValue(x.X, changed)
	case *ast.SelectorExpr:
		return keepsValue(x.X, changed)
	case *ast.StarExpr:
		return keepsValue(x.X, changed)
	case *ast.IndexExpr:
		return keepsValue(x.X, changed) && keepsValue(x.Index, changed)
	case *ast.UnaryExpr:
		return x.Op == token.AND || x.Op != token.ARROW && keepsValue(x.X, changed)
	case *ast.BinaryExpr:
		return keepsValue(x.X, changed) && keepsValue(x.Y, changed)
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if !keepsValue(el, changed) {
				return false
			}
		}
		return true
	case *ast.CallExpr:
		id, ok := x.Fun.(*ast.Ident)
		if !ok || !predeclaredConv[id.Name] || id.Name == "len" || id.Name == "cap" {
			return false
		}
		for _, a := range x.Args {
			if !keepsValue(a, changed) {
				return false
			}
		}
		return true
	}
	return false
}

// usesRecovered reports whether body (not the func literals in it, which
// are read on their own) uses the value of recover(). The interpreter
// recovers a reflect.Value for panic(v) (%T says reflect.Value, an error
// is no longer an error) and, for a panic of the runtime, reflect's or
// its own wording and types ("reflect: slice index out of range", a
// *reflect.ValueError, an *interp.cfgError with a position) where Go
// gives a runtime.Error ("runtime error: index out of range [5] with
// length 3"). A recover() whose value is dropped or only compared with
// nil (if r := recover(); r != nil { ok = false }) only stops the panic,
// and that the interpreter does right.
func usesRecovered(body *ast.BlockStmt) bool {
	held := map[string]bool{} // r of r := recover()
	var stack []ast.Node
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		parent := ast.Node(nil)
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		if _, lit := n.(*ast.FuncLit); lit || found {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if isRecoverCall(n) && !nilCompared(parent) {
				if a, ok := parent.(*ast.AssignStmt); ok && a.Tok == token.DEFINE && len(a.Lhs) == 1 && len(a.Rhs) == 1 && identName(a.Lhs[0]) != "" {
					held[identName(a.Lhs[0])] = true
				} else if _, ok := parent.(*ast.ExprStmt); !ok {
					found = true
				}
			}
		case *ast.Ident:
			if held[n.Name] && !nilCompared(parent) {
				if a, ok := parent.(*ast.AssignStmt); !ok || a.Tok != token.DEFINE || len(a.Lhs) != 1 || a.Lhs[0] != n {
					found = true
				}
			}
		}
		stack = append(stack, n)
		return !found
	})
	return found
}

// identName is e's name when it is an identifier, else "".
func identName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// nilCompared reports whether n is a comparison with nil (x == nil, x !=
// nil).
func nilCompared(n ast.Node) bool {
	b, ok := n.(*ast.BinaryExpr)
	if !ok || (b.Op != token.EQL && b.Op != token.NEQ) {
		return false
	}
	isNil := func(e ast.Expr) bool { id, ok := e.(*ast.Ident); return ok && id.Name == "nil" }
	return isNil(b.X) || isNil(b.Y)
}

// isRecoverCall reports whether e is a call of the builtin recover (by
// name: a func of the person's called recover counts too).
func isRecoverCall(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return false
	}
	id, ok := c.Fun.(*ast.Ident)
	return ok && id.Name == "recover"
}

// capturedLoopVar says which loop variable body captures in a func
// literal or takes the address of (vars, the loop's own: since Go 1.22
// each iteration has its own, where yaegi shares one across the loop, so
// funcs made in a loop all see its last value), or hands to a deferred
// call, as an argument or in a deferred func literal (those and the
// variables the body defines, inBody: yaegi gives each deferred call the
// last iteration's, 3 3 3 for 2 1 0). It goes by name, so a shadowing
// name counts too.
func capturedLoopVar(vars, inBody []ast.Expr, body *ast.BlockStmt) string {
	names, deferred := identNames(vars), identNames(append(append([]ast.Expr{}, vars...), inBody...))
	if len(deferred) == 0 {
		return ""
	}
	why := ""
	var inFunc func(n ast.Node, depth int, seen map[string]bool)
	inFunc = func(n ast.Node, depth int, seen map[string]bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			if why != "" {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				if depth == 0 {
					inFunc(n.Body, 1, names)
					return false
				}
			case *ast.DeferStmt:
				if depth == 0 {
					for _, a := range n.Call.Args {
						if v := mentionsAny(a, deferred); v != "" {
							why = "passes the loop's variable " + v + " to a deferred call (the interpreter gives it the last iteration's value)"
							return false
						}
					}
					if lit, ok := n.Call.Fun.(*ast.FuncLit); ok {
						inFunc(lit.Body, 1, deferred)
						return false
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND && names[baseIdent(n.X)] {
					why = "takes the address of the loop variable " + baseIdent(n.X) + " (one per iteration since Go 1.22)"
				}
			case *ast.Ident:
				switch {
				case depth > 0 && names[n.Name]:
					why = "captures the loop variable " + n.Name + " in a func literal (one per iteration since Go 1.22)"
				case depth > 0 && seen[n.Name]:
					why = "captures the loop's variable " + n.Name + " in a deferred func literal (the interpreter gives it the last iteration's value)"
				}
			}
			return why == ""
		})
	}
	inFunc(body, 0, names)
	return why
}

// identNames are the names of the identifiers among es, without _.
func identNames(es []ast.Expr) map[string]bool {
	names := map[string]bool{}
	for _, v := range es {
		if id, ok := v.(*ast.Ident); ok && id.Name != "_" {
			names[id.Name] = true
		}
	}
	return names
}

// bodyDefined are the names a loop body defines (x := ..., var x),
// outside the func literals in it, as identifiers.
func bodyDefined(body *ast.BlockStmt) []ast.Expr {
	var out []ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				out = append(out, n.Lhs...)
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				out = append(out, id)
			}
		}
		return true
	})
	return out
}

// mentionsAny is the first of names that e uses, or "".
func mentionsAny(e ast.Expr, names map[string]bool) string {
	found := ""
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && names[id.Name] && found == "" {
			found = id.Name
		}
		return found == ""
	})
	return found
}

// baseIdent is the variable at the root of x.f[i].g, or "".
func baseIdent(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x.Name
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return ""
		}
	}
}
