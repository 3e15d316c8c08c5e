package compiled

import (
	"go/ast"
	"go/token"
	"go/types"
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
