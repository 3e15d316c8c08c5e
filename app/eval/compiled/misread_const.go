package compiled

import (
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// An exported package var whose initializer is a constant expression
// (var Rate = 1, var Timeout = 5 * time.Second, var Name = "x") is a
// constant to the interpreter when another package, or the input, reads
// it: yaegi keeps the initial value in the symbol it exports, so after
// rates.SetRate(3) the input's rates.Rate still said 1 where Go says 3,
// rates.Rate = 3 failed with "cannot assign to %!s(int=1) (int
// constant)" and rates.Rate++ panicked. The package's own code reads the
// real variable. So code that reads such a var of a package the worker
// interprets, from outside that package, runs compiled.

// constVar is an exported var with a constant-shaped initializer.
type constVar struct {
	// types are the "path.Name" of the qualified calls in the
	// initializer: they keep it constant only when they are conversions
	// to a type (time.Duration(5)), not calls of a func (errors.New("x")).
	types []string
}

// noteConstVars fills f.constVars and f.uses from one parsed file: its
// exported vars whose initializers are constant-shaped, and the exported
// names it selects from each import.
func (f *pkgFacts) noteConstVars(file *ast.File, info *types.Info) {
	local := importNames(file)
	for _, d := range file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			if len(vs.Values) != len(vs.Names) {
				continue // var a, b = f(): a call's results
			}
			for i, name := range vs.Names {
				if !name.IsExported() {
					continue
				}
				var conv []string
				if constantShaped(vs.Values[i], info, local, &conv) {
					if f.constVars == nil {
						f.constVars = map[string]constVar{}
					}
					f.constVars[name.Name] = constVar{types: conv}
				}
			}
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && local[id.Name] != "" && sel.Sel.IsExported() {
			if f.uses == nil {
				f.uses = map[string]map[string]bool{}
			}
			p := local[id.Name]
			if f.uses[p] == nil {
				f.uses[p] = map[string]bool{}
			}
			f.uses[p][sel.Sel.Name] = true
		}
		return true
	})
}

// importNames maps the local names of a file's imports to their paths
// (the default name taken as the path's last element, without a .vN or
// go- part).
func importNames(file *ast.File) map[string]string {
	out := map[string]string{}
	for _, imp := range file.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := defaultName(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name != "_" && name != "." {
			out[name] = p
		}
	}
	return out
}

// defaultName is the usual package name of an import path.
func defaultName(p string) string {
	name := path.Base(p)
	if strings.HasPrefix(name, "v") && strings.Trim(name[1:], "0123456789") == "" && path.Dir(p) != "." {
		name = path.Base(path.Dir(p)) // example.com/mod/v2
	}
	name = strings.TrimPrefix(name, "go-")
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[:i] // gopkg.in/yaml.v3
	}
	return name
}

// predeclaredConv are the builtins a constant expression may call.
var predeclaredConv = map[string]bool{
	"bool": true, "byte": true, "rune": true, "string": true, "int": true, "int8": true, "int16": true,
	"int32": true, "int64": true, "uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"uintptr": true, "float32": true, "float64": true, "complex64": true, "complex128": true,
	"len": true, "cap": true, "real": true, "imag": true, "complex": true, "min": true, "max": true,
}

// constantShaped reports whether e may be a constant expression, leaning
// to yes where the facts (read without the imports) cannot tell: an
// operand from another package counts, and a call of another package's
// name counts when that name is a type (added to conv, checked later).
func constantShaped(e ast.Expr, info *types.Info, local map[string]string, conv *[]string) bool {
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return true
	}
	switch x := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return constantShaped(x.X, info, local, conv)
	case *ast.UnaryExpr:
		return x.Op != token.AND && x.Op != token.ARROW && constantShaped(x.X, info, local, conv)
	case *ast.BinaryExpr:
		return constantShaped(x.X, info, local, conv) && constantShaped(x.Y, info, local, conv)
	case *ast.Ident:
		if x.Name == "nil" {
			return false
		}
		tv, ok := info.Types[e]
		return !ok || tv.Type == nil || tv.Type == types.Typ[types.Invalid] // a var of its own package reads right
	case *ast.SelectorExpr:
		_, ok := x.X.(*ast.Ident)
		return ok
	case *ast.CallExpr:
		for _, a := range x.Args {
			if !constantShaped(a, info, local, conv) {
				return false
			}
		}
		switch fn := x.Fun.(type) {
		case *ast.Ident:
			if predeclaredConv[fn.Name] {
				return true
			}
			tv, ok := info.Types[fn]
			return ok && tv.IsType()
		case *ast.SelectorExpr:
			id, ok := fn.X.(*ast.Ident)
			if !ok || local[id.Name] == "" {
				return false
			}
			*conv = append(*conv, local[id.Name]+"."+fn.Sel.Name)
			return true
		}
	}
	return false
}

// constVarRead finds, among the exported names sel selects from the
// package path, a var the interpreter takes for a constant: "" when none
// or when the worker does not interpret path.
func (s *Session) constVarRead(path, module string, linked Linked, names map[string]bool) string {
	dir := s.interpretedDir(path, module, linked)
	if dir == "" {
		return ""
	}
	f := s.packageFacts(dir)
	if f == nil {
		return ""
	}
	for name := range names {
		cv, ok := f.constVars[name]
		if !ok {
			continue
		}
		folded := true
		for _, t := range cv.types {
			i := strings.LastIndex(t, ".")
			if !s.declaresType(t[:i], module, linked, t[i+1:]) {
				folded = false
			}
		}
		if folded {
			return path + "." + name
		}
	}
	return ""
}

// declaresType reports whether the package path declares the type name,
// yes when its source is not found.
func (s *Session) declaresType(path, module string, linked Linked, name string) bool {
	dir := ""
	switch {
	case standardPath(path):
		if root := goroot(s.opts.GoCommand); root != "" {
			dir = filepath.Join(root, "src", filepath.FromSlash(path))
		}
	case ofModule(path, module):
		dir = s.projectDir(path, module)
	case linked.Dependency != nil:
		dir = linked.Dependency(path)
	}
	if dir == "" {
		return true
	}
	f := s.packageFacts(dir)
	return f == nil || f.typeNames[name]
}

// interpretedDir is the source folder of path when the worker interprets
// it (a project package not linked natively, or a dependency while the
// fallback interprets them), else "".
func (s *Session) interpretedDir(path, module string, linked Linked) string {
	switch {
	case ofModule(path, module):
		if linked.Native != nil && linked.Native(path) {
			return ""
		}
		return s.projectDir(path, module)
	case linked.Dependency != nil && !standardPath(path):
		return linked.Dependency(path)
	}
	return ""
}

// selectedNames maps the qualifiers of the selectors in nodes to the
// names selected (rates.Rate: rates -> Rate).
func selectedNames(nodes []ast.Node) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					if out[id.Name] == nil {
						out[id.Name] = map[string]bool{}
					}
					out[id.Name][sel.Sel.Name] = true
				}
			}
			return true
		})
	}
	return out
}
