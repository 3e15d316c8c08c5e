package compiled

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// Code the interpreter runs but gets wrong. yaegi represents a type that
// interpreted code declares as an anonymous reflect type: when a value of
// it reaches compiled code (fmt, encoding/json, errors, reflect, sort, the
// evaluator's own %+v of the result) its name is gone (%T says
// "struct { ... }", a Celsius prints as a float64), its unexported fields
// are exported with an X in front (json.Marshal adds "Xnote"), and its
// methods are not there (errors.As panics, errors.Is misses an Is method,
// a promoted String of an embedded struct is not called, %w wraps a
// string). A select case that assigns (case v = <-ch) panics inside
// reflect.Select; generic code, iter.Seq and range over an integer or a
// func fail or panic. None of this is an error Go would give, and some of
// it is a silent wrong value, so such code never reaches the interpreter:
// an input runs compiled when it, or a package it uses that the worker
// interprets (a project package not linked in, or a dependency while the
// fallback interprets them from source; and the packages that one
// imports, in turn), declares
// a type, a generic func, a select case that assigns, a func literal or
// address that captures a loop variable, a range over an integer or a
// func, a use of the value recover() returns, or imports iter. A project package compiled into the
// native worker is native Go and is trusted, except for its generic
// declarations, which cannot be linked.
//
// A package is read with go/parser and type-checked with go/types on its
// own (its imports unresolved: what the check needs is the type of
// a range's operand, which a parameter or a local gives), once per version
// of its files.

// Linked says which packages outside the standard library the worker
// interprets from source, and where they are.
type Linked struct {
	// Native reports whether the worker links a project package natively
	// (nil: none).
	Native func(path string) bool
	// Dependency is the source folder of a dependency's package when the
	// worker interprets dependencies from source (the fallback while no
	// native worker is built); nil when they are linked natively.
	Dependency func(path string) string
}

// Misread reports whether code must run compiled because the interpreter
// would run it wrong (see above), and why, in words for a note. module is
// the project's module path.
func (s *Session) Misread(code, module string, linked Linked) (bool, string) {
	in, err := splitInput(code)
	if err != nil {
		return false, ""
	}
	if why := misreadInInput(inputNodes(in)); why != "" {
		return true, why
	}
	s.mu.Lock()
	set, known := s.set, s.known
	state := s.stateNames()
	blankTyped := s.blankTyped
	s.mu.Unlock()
	if why := misreadTopLevel(in, state); why != "" {
		return true, "it " + why + ", which the interpreter would get wrong"
	}
	if blankTyped && blankAssigned(in, token.ASSIGN) {
		return true, "it assigns to _ after an earlier input defined _ (_, err := ...), which the interpreter gives that input's type (it panics)"
	}
	imports := map[string]string{}
	for _, i := range append(append(append([]importDecl{}, known...), set.imports...), in.imports...) {
		imports[i.local()] = i.path
	}
	var used []string // project packages the input imports or names
	for _, i := range in.imports {
		used = append(used, i.path)
	}
	for _, n := range inputNodes(in) {
		quals, _ := namesIn(n)
		for q := range quals {
			if p := imports[q]; p != "" {
				used = append(used, p)
			}
		}
	}
	if why := s.nativeGenericUse(inputNodes(in), imports, module, linked); why != "" {
		return true, why
	}
	for q, names := range selectedNames(inputNodes(in)) {
		if p := imports[q]; p != "" {
			if v := s.constVarRead(p, module, linked, names); v != "" {
				return true, "it reads " + v + ", a package var the interpreter takes for a constant (it would not see it change)"
			}
		}
	}
	seen := map[string]bool{}
	for _, path := range used {
		if why := s.misreadPackage(path, module, linked, seen); why != "" {
			return true, why
		}
	}
	return false, ""
}

// misreadTopLevel is what the interpreter gets wrong in the input's own
// top-level statements, which it runs in the session's global scope: a
// name defined again in an inner scope (if x := ..., for x := ..., a
// block's x := ...) that is a variable of the session or of the input's
// top level changes that variable (x said 2 where Go says 1); a type
// switch that binds (switch v := x.(type)) panics inside the interpreter;
// and the value of a last expression that starts with a func literal
// (func() int { ... }()) is lost. state are the session's variables.
func misreadTopLevel(in *input, state map[string]bool) string {
	outer := map[string]bool{}
	for n := range state {
		outer[n] = true
	}
	for _, n := range definedNames(in) {
		outer[n] = true
	}
	for _, st := range in.stmts {
		if ds, ok := st.node.(*ast.DeclStmt); ok {
			ast.Inspect(ds, func(n ast.Node) bool {
				if vs, ok := n.(*ast.ValueSpec); ok {
					for _, id := range vs.Names {
						outer[id.Name] = true
					}
				}
				return true
			})
		}
	}
	for _, st := range in.stmts {
		if why := innerRedefinition(st.node, outer); why != "" {
			return why
		}
	}
	if last, ok := in.lastExpr(); ok {
		if _, isLit := leftmost(last.X).(*ast.FuncLit); isLit {
			return "ends in an expression that starts with a func literal (its value is lost)"
		}
	}
	return ""
}

// blankAssigned reports whether a top-level statement of in assigns
// (tok token.ASSIGN) or defines (token.DEFINE) _ with a value that is not
// a literal.
func blankAssigned(in *input, tok token.Token) bool {
	for _, st := range in.stmts {
		a, ok := st.node.(*ast.AssignStmt)
		if !ok || a.Tok != tok {
			continue
		}
		for i, l := range a.Lhs {
			if identName(l) != "_" {
				continue
			}
			if len(a.Rhs) != len(a.Lhs) {
				return true
			}
			if _, lit := a.Rhs[i].(*ast.BasicLit); !lit {
				return true
			}
		}
	}
	return false
}

// innerRedefinition finds, in a top-level statement outside its func
// literals, an inner scope's definition of a name of outer, or a type
// switch that binds.
func innerRedefinition(top ast.Stmt, outer map[string]bool) string {
	why := ""
	check := func(e ast.Expr) {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" && outer[id.Name] && why == "" {
			why = "defines " + id.Name + " again in an inner scope, which the interpreter takes for the outer " + id.Name
		}
	}
	ast.Inspect(top, func(n ast.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.TypeSwitchStmt:
			if n.Assign != nil {
				if a, ok := n.Assign.(*ast.AssignStmt); ok && a.Tok == token.DEFINE {
					why = "has a type switch that binds a variable (switch v := x.(type)) outside a func"
					return false
				}
			}
		case *ast.AssignStmt:
			if n != top && n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					check(l)
				}
			}
		case *ast.ValueSpec:
			if _, isDecl := top.(*ast.DeclStmt); !isDecl {
				for _, id := range n.Names {
					check(id)
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				if n.Key != nil {
					check(n.Key)
				}
				if n.Value != nil {
					check(n.Value)
				}
			}
		}
		return true
	})
	return why
}

// leftmost is the expression a binary, call, selector or index
// expression starts with.
func leftmost(e ast.Expr) ast.Expr {
	for {
		switch x := e.(type) {
		case *ast.BinaryExpr:
			e = x.X
		case *ast.CallExpr:
			e = x.Fun
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		case *ast.TypeAssertExpr:
			e = x.X
		default:
			return e
		}
	}
}

// misreadInInput is the first construct of the input itself that the
// interpreter gets wrong.
func misreadInInput(nodes []ast.Node) string {
	why := ""
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if why == "" {
				why = misreadNode(n, nil)
			}
			return why == ""
		})
	}
	if why != "" {
		return "it " + why + ", which the interpreter would get wrong"
	}
	return ""
}

// misreadNode says what n is when the interpreter gets it wrong ("declares
// the type T"), or "". info, when set, gives the types of expressions.
func misreadNode(n ast.Node, info *types.Info) string {
	switch n := n.(type) {
	case *ast.TypeSpec:
		if _, ok := n.Type.(*ast.InterfaceType); (!ok || n.TypeParams != nil) && !n.Assign.IsValid() {
			return "declares the type " + n.Name.Name
		}
	case *ast.FuncDecl:
		if n.Type.TypeParams != nil {
			return "declares the generic func " + n.Name.Name
		}
		if n.Body != nil {
			return funcBodyMisread(n.Body.List)
		}
	case *ast.FuncLit:
		return funcBodyMisread(n.Body.List)
	case *ast.StructType: // an anonymous struct with an unexported or embedded field
		for _, f := range n.Fields.List {
			if len(f.Names) == 0 {
				return "has a struct with an embedded field"
			}
			for _, name := range f.Names {
				if !name.IsExported() {
					return "has a struct with the unexported field " + name.Name
				}
			}
		}
	case *ast.SelectorExpr: // (*strings.Builder).Len: yaegi panics "Method index out of range"
		if p, ok := n.X.(*ast.ParenExpr); ok {
			if _, ok := p.X.(*ast.StarExpr); ok {
				return "has a method expression of a pointer type ((*T).M)"
			}
		}
	case *ast.CommClause:
		if a, ok := n.Comm.(*ast.AssignStmt); ok && a.Tok == token.ASSIGN {
			return "has a select case that assigns (case v = <-ch)"
		}
	case *ast.ForStmt:
		var vars []ast.Expr
		if a, ok := n.Init.(*ast.AssignStmt); ok && a.Tok == token.DEFINE {
			vars = a.Lhs
		}
		if why := capturedLoopVar(vars, bodyDefined(n.Body), n.Body); why != "" {
			return why
		}
	case *ast.RangeStmt:
		var vars []ast.Expr
		if n.Tok == token.DEFINE {
			vars = []ast.Expr{n.Key, n.Value}
		}
		if why := capturedLoopVar(vars, bodyDefined(n.Body), n.Body); why != "" {
			return why
		}
		if info == nil {
			return ""
		}
		if t := info.TypeOf(n.X); t != nil {
			switch u := t.Underlying().(type) {
			case *types.Basic:
				if u.Info()&types.IsInteger != 0 {
					return "ranges over an integer"
				}
			case *types.Signature:
				return "ranges over a func"
			}
		}
	case *ast.ImportSpec:
		if n.Path.Value == `"iter"` {
			return "imports iter"
		}
	}
	return ""
}

// funcBodyMisread is what the interpreter gets wrong in a func's body
// (not in the func literals in it, which are read on their own).
func funcBodyMisread(body []ast.Stmt) string {
	block := &ast.BlockStmt{List: body}
	if usesRecovered(block) {
		return "uses the value recover() returns (the interpreter's is not Go's)"
	}
	if v := lateDeferArg(block); v != "" {
		return "defers a call whose argument " + v + " may change before the call runs (the interpreter evaluates it then, Go at the defer)"
	}
	return ""
}

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
