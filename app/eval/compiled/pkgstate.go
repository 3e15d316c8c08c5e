package compiled

import (
	"go/ast"
	"go/token"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Package state across inputs and engines. Besides the person's variables
// (history.go), an input can change the state of a package: a call
// (rates.SetRate(3), a method of a value that changes a package var), an
// assignment (bolt.DefaultOptions.Timeout = d), or, in the standard
// library, a call that changes the process or a registry (os.Setenv,
// os.Chdir, log.SetFlags, http.HandleFunc, flag.Int). `go run` of the
// session would see that change in every later input; a compiled program
// is a fresh process, and the interpreter's worker has its own copy of
// every package. So:
//
//   - A compiled program also runs again first every earlier input that
//     changed the state of a package the program reaches: the packages it
//     names and those they import in turn, the project's and the
//     dependencies' (liba.Total reads libb.Scale: an input that set
//     libb.Scale runs again before a program that calls liba.Total). An
//     input "changes" a package when it calls or assigns (it is not
//     inert) and names the package, or uses a variable or func an input
//     that names it defined; the packages reached that way through the
//     imports count too: a project package when it declares a package
//     var, a dependency always. A standard package counts only for the
//     calls and assignments that change it (stdChanges). What an
//     included input reaches counts in turn for the inputs before it.
//   - A package whose state a compiled input changed belongs to the
//     compiled side from then on (the interpreter's copy of it is stale):
//     every later input that reaches it runs compiled, with the inputs that
//     changed it run again first.
//
// The analysis goes by names, as history.go's does: it may run an input
// again that did not need it (its output is hidden; the note names it),
// never leave out one that changed a package the program reaches by
// imports.

// stdStatePackages are standard packages whose every call may change
// global state (flag definitions, published variables).
var stdStatePackages = map[string]bool{"flag": true, "expvar": true}

// stdChanger matches a standard function that changes process or package
// state: os.Setenv, os.Chdir, log.SetFlags, rand.Seed, http.HandleFunc,
// sql.Register, mime.AddExtensionType, runtime.GOMAXPROCS, debug.SetGCPercent.
var stdChanger = regexp.MustCompile(`^(Set|Register|Handle|Seed$|Chdir$|Clearenv$|Unsetenv$|Publish$|AddExtensionType$|GOMAXPROCS$)`)

// pathsOf maps the local names of the imports the session knows, and the
// input's own, to their paths. s.mu is held.
func (s *Session) pathsOf(in *input) map[string]string {
	imports := map[string]string{}
	for _, i := range append(append(append([]importDecl{}, s.known...), s.set.imports...), in.imports...) {
		imports[i.local()] = i.path
	}
	return imports
}

// packagePath is the import path of the qualifier q, or "" when q is not
// a package (a variable, a declared name). s.mu is held.
func (s *Session) packagePath(q string, imports map[string]string, state map[string]bool) string {
	if p := imports[q]; p != "" {
		return p
	}
	if state[q] || s.set.declares(q) {
		return ""
	}
	return standardPackages(s.opts.GoCommand)[q] // used without an import: added when used (std.go)
}

// notePackages fills what e does to packages: those it names, with those
// the inputs that define the names it uses named, and the standard
// packages it changes. s.mu is held; e is not in the history yet.
func (s *Session) notePackages(e *entry, in *input) {
	imports, state := s.pathsOf(in), s.stateNames()
	named := map[string]bool{}
	for _, n := range inputNodes(in) {
		quals, _ := namesIn(n)
		for q := range quals {
			if p := s.packagePath(q, imports, state); p != "" {
				named[p] = true
			}
		}
		for _, p := range stdChanges(n, func(q string) string { return s.packagePath(q, imports, state) }) {
			if !slices.Contains(e.changesStd, p) {
				e.changesStd = append(e.changesStd, p)
			}
		}
	}
	for name := range e.refs {
		if d := s.definer(name); d != nil {
			for _, p := range d.named {
				named[p] = true
			}
		}
	}
	for p := range named {
		e.named = append(e.named, p)
	}
	slices.Sort(e.named)
	e.acts = len(in.stmts) > 0 && !inert(in.stmts)
	e.changed = s.changes(e)
}

// definer is the latest input in the history that defines name, or nil.
// s.mu is held.
func (s *Session) definer(name string) *entry {
	for i := len(s.history) - 1; i >= 0; i-- {
		if slices.Contains(s.history[i].defines, name) {
			return s.history[i]
		}
	}
	return nil
}

// stdChanges are the standard packages whose state n changes: a call of a
// stdChanger function (or of any function of a stdStatePackages package),
// or an assignment to something reached through the package.
func stdChanges(n ast.Node, pathOf func(q string) string) []string {
	var out []string
	pkg := func(e ast.Expr) string {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return ""
		}
		path := pathOf(id.Name)
		if path == "" || !standardPath(path) {
			return ""
		}
		return path
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if p := pkg(x.Fun); p != "" && (stdStatePackages[p] || stdChanger.MatchString(x.Fun.(*ast.SelectorExpr).Sel.Name)) {
				out = append(out, p)
			}
		case *ast.AssignStmt:
			if x.Tok != token.DEFINE {
				for _, l := range x.Lhs {
					if p := pkg(rootSelector(l)); p != "" {
						out = append(out, p)
					}
				}
			}
		case *ast.IncDecStmt:
			if p := pkg(rootSelector(x.X)); p != "" {
				out = append(out, p)
			}
		}
		return true
	})
	return out
}

// rootSelector is the innermost pkg.Name of pkg.Name.f[i].g, or e.
func rootSelector(e ast.Expr) ast.Expr {
	for {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			if _, ok := x.X.(*ast.Ident); ok {
				return x
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return e
		}
	}
}

// reach is every package the named packages reach: themselves and the
// packages they import in turn, the project's and the dependencies' (a
// dependency's source found through Options.DependencyDir; one not found
// is a leaf), the standard packages as leaves.
func (s *Session) reach(named []string) map[string]bool {
	out := map[string]bool{}
	var visit func(p string)
	visit = func(p string) {
		if out[p] {
			return
		}
		out[p] = true
		var imports []string
		switch {
		case ofModule(p, s.opts.Module):
			if f := s.packageFacts(s.projectDir(p, s.opts.Module)); f != nil {
				imports = f.imports
			}
		case standardPath(p) || s.opts.DependencyDir == nil:
			return
		default:
			if dir := s.opts.DependencyDir(p); dir != "" {
				imports = s.packageImports(dir)
			}
		}
		for _, imp := range imports {
			if standardPath(imp) {
				out[imp] = true
			} else {
				visit(imp)
			}
		}
	}
	for _, p := range named {
		visit(p)
	}
	return out
}

// changes is the set of packages whose state e may have changed: nothing
// when it only declares or computes; else the packages it reaches that
// hold state (a project package that declares a package var, any
// dependency), and the standard packages it changes.
func (s *Session) changes(e *entry) map[string]bool {
	out := map[string]bool{}
	if !e.acts {
		return out
	}
	for p := range s.reach(e.named) {
		switch {
		case ofModule(p, s.opts.Module):
			if f := s.packageFacts(s.projectDir(p, s.opts.Module)); f != nil && f.vars {
				out[p] = true
			}
		case !standardPath(p):
			out[p] = true
		}
	}
	for _, p := range e.changesStd {
		out[p] = true
	}
	return out
}

// programPackages are the packages a program for in names, with those
// the kept declarations it uses and the inputs that define the names it
// uses named. s.mu is held.
func (s *Session) programPackages(in *input, needed map[string]bool) []string {
	imports, state := s.pathsOf(in), s.stateNames()
	named := map[string]bool{}
	for _, n := range inputNodes(in) {
		quals, _ := namesIn(n)
		for q := range quals {
			if p := s.packagePath(q, imports, state); p != "" {
				named[p] = true
			}
		}
	}
	for _, d := range s.usedDecls(needed) {
		for q := range d.quals {
			if p := s.packagePath(q, imports, state); p != "" {
				named[p] = true
			}
		}
	}
	for name := range needed {
		if d := s.definer(name); d != nil {
			for _, p := range d.named {
				named[p] = true
			}
		}
	}
	var out []string
	for p := range named {
		out = append(out, p)
	}
	return out
}

// usedDecls are the kept declarations that the names in needed reach,
// through the names each uses in turn (the others' packages the program
// does not reach). s.mu is held.
func (s *Session) usedDecls(needed map[string]bool) []decl {
	want := maps.Clone(needed)
	var out []decl
	taken := make([]bool, len(s.set.decls))
	for grew := true; grew; {
		grew = false
		for i, d := range s.set.decls {
			uses := func(k string) bool { recv, _, _ := strings.Cut(k, "."); return want[k] || want[recv] } // T.M goes with T
			if taken[i] || !slices.ContainsFunc(d.keys, uses) {
				continue
			}
			taken[i], grew = true, true
			out = append(out, d)
			for id := range d.idents {
				want[id] = true
			}
		}
	}
	return out
}

// ownedPackage is the first package the input reaches whose state a
// compiled input changed (see above), or "". s.mu is held.
func (s *Session) ownedPackage(in *input) string {
	if len(s.ownedPkgs) == 0 {
		return ""
	}
	var hit []string
	for p := range s.reach(s.programPackages(in, neededNames(in))) {
		if s.ownedPkgs[p] {
			hit = append(hit, p)
		}
	}
	slices.Sort(hit)
	if len(hit) == 0 {
		return ""
	}
	return hit[0]
}

// declaresVar reports whether a file declares a package-level var.
func declaresVar(f *ast.File) bool {
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			return true
		}
	}
	return false
}

func intersects(a, b map[string]bool) string {
	var hit []string
	for p := range a {
		if b[p] {
			hit = append(hit, p)
		}
	}
	slices.Sort(hit)
	if len(hit) == 0 {
		return ""
	}
	return hit[0]
}
