package compiled

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// The facts of a project package (or an interpreted dependency) the
// interpreter would misread: read once per version of its files.

// pkgFacts is what the interpreter would get wrong in one package.
type pkgFacts struct {
	stamp    string   // names, sizes and times of its files: a change means read again
	misread  string   // the first construct the interpreter gets wrong, or ""
	generics []string // the names of its generic funcs and types (not linked when it is native)
	imports  []string // its imports
	vars     bool     // it declares a package-level var: it has state a call can change (pkgstate.go)
	// typeNames are its top-level types; constVars its exported vars the
	// interpreter takes for constants, and uses the exported names it
	// selects from each import (misread_const.go).
	typeNames map[string]bool
	constVars map[string]constVar
	uses      map[string]map[string]bool
}

// factsCache holds the facts of the packages read so far, by folder, and
// the imports of the dependencies' packages read for pkgstate.go.
type factsCache struct {
	mu      sync.Mutex
	facts   map[string]*pkgFacts
	imports map[string]*pkgFacts // only stamp and imports set
}

// misreadPackage is why the interpreter would get the package path (or a
// package it imports) wrong, or "" when it would not or does not
// interpret it.
func (s *Session) misreadPackage(path, module string, linked Linked, seen map[string]bool) string {
	if seen[path] {
		return ""
	}
	seen[path] = true
	var dir string
	switch {
	case ofModule(path, module):
		if linked.Native != nil && linked.Native(path) {
			return "" // native Go; its generics are checked where the input names them (nativeGenericUse)
		}
		dir = s.projectDir(path, module)
	case linked.Dependency != nil && !standardPath(path):
		dir = linked.Dependency(path)
	}
	if dir == "" {
		return ""
	}
	f := s.packageFacts(dir)
	if f == nil {
		return ""
	}
	if f.misread != "" {
		how := ""
		if !ofModule(path, module) {
			how = ", interpreted from source until the native evaluator is built"
		}
		return "it uses " + path + how + ", which " + f.misread + " (the interpreter would get it wrong)"
	}
	for _, imp := range f.imports {
		if v := s.constVarRead(imp, module, linked, f.uses[imp]); v != "" {
			return "it uses " + path + ", which reads " + v + ", a package var the interpreter takes for a constant (it would not see it change)"
		}
	}
	for _, imp := range f.imports {
		if why := s.misreadPackage(imp, module, linked, seen); why != "" {
			return why
		}
	}
	return ""
}

// nativeGenericUse finds a use of a generic func or type of a project
// package the worker links natively: extract cannot link generic code, so
// the name is not there for the interpreter.
func (s *Session) nativeGenericUse(nodes []ast.Node, imports map[string]string, module string, linked Linked) string {
	if linked.Native == nil {
		return ""
	}
	why := ""
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || why != "" {
				return why == ""
			}
			id, ok := sel.X.(*ast.Ident)
			path := ""
			if ok {
				path = imports[id.Name]
			}
			if !ofModule(path, module) || !linked.Native(path) {
				return true
			}
			if f := s.packageFacts(s.projectDir(path, module)); f != nil && slices.Contains(f.generics, sel.Sel.Name) {
				why = "it uses " + id.Name + "." + sel.Sel.Name + ", which is generic: the native evaluator cannot link generic code"
			}
			return true
		})
	}
	return why
}

// ofModule reports whether path is a package of module.
func ofModule(path, module string) bool {
	return module != "" && (path == module || strings.HasPrefix(path, module+"/"))
}

// projectDir is the folder of the project package path.
func (s *Session) projectDir(path, module string) string {
	return filepath.Join(s.opts.Root, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(path, module), "/")))
}

// standardPath reports whether path looks like a standard package's (no
// dot in its first element).
func standardPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// packageFacts reads the package in dir, or gives the facts read before
// when its files did not change; nil when dir holds no Go package.
func (s *Session) packageFacts(dir string) *pkgFacts {
	stamp, files := folderStamp(dir)
	if len(files) == 0 {
		return nil
	}
	c := &s.facts
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.facts[dir]; f != nil && f.stamp == stamp {
		return f
	}
	f := readFacts(files)
	f.stamp = stamp
	if c.facts == nil {
		c.facts = map[string]*pkgFacts{}
	}
	c.facts[dir] = f
	return f
}

// packageImports are the imports of the package in dir (every file's,
// build tags or not), read with parser.ImportsOnly once per version of its
// files: a dependency's own imports, which package state follows
// (pkgstate.go), where its other facts are not needed.
func (s *Session) packageImports(dir string) []string {
	stamp, files := folderStamp(dir)
	if len(files) == 0 {
		return nil
	}
	c := &s.facts
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.facts[dir]; f != nil && f.stamp == stamp {
		return f.imports
	}
	if f := c.imports[dir]; f != nil && f.stamp == stamp {
		return f.imports
	}
	f := &pkgFacts{stamp: stamp}
	fset := token.NewFileSet()
	for _, name := range files {
		file, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, imp := range file.Imports {
			if p := strings.Trim(imp.Path.Value, `"`); !slices.Contains(f.imports, p) {
				f.imports = append(f.imports, p)
			}
		}
	}
	if c.imports == nil {
		c.imports = map[string]*pkgFacts{}
	}
	c.imports[dir] = f
	return f.imports
}

// folderStamp lists the non-test Go files of dir with a stamp of their
// names, sizes and modification times.
func folderStamp(dir string) (string, []string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", nil
	}
	var stamp strings.Builder
	var files []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, filepath.Join(dir, n))
		fmt.Fprintf(&stamp, "%s %d %s\n", n, info.Size(), info.ModTime().Format(time.RFC3339Nano))
	}
	return stamp.String(), files
}

// readFacts parses and type-checks one package's files (every file, build
// tags or not: a construct in a file another platform builds is counted,
// which at worst runs an input compiled that the interpreter could run).
func readFacts(files []string) *pkgFacts {
	fset := token.NewFileSet()
	var parsed []*ast.File
	f := &pkgFacts{}
	for _, name := range files {
		file, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		parsed = append(parsed, file)
		f.vars = f.vars || declaresVar(file)
		for _, imp := range file.Imports {
			if p := strings.Trim(imp.Path.Value, `"`); !slices.Contains(f.imports, p) {
				f.imports = append(f.imports, p)
			}
		}
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{
		Importer: importerFunc(func(string) (*types.Package, error) { return nil, errors.New("not resolved") }),
		Error:    func(error) {}, // unresolved imports are expected; the rest is checked as far as it goes
	}
	conf.Check("", fset, parsed, info) //nolint:errcheck // errors are expected, see Error
	for _, file := range parsed {
		f.noteConstVars(file, info)
		for _, d := range file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, sp := range g.Specs {
					if f.typeNames == nil {
						f.typeNames = map[string]bool{}
					}
					f.typeNames[sp.(*ast.TypeSpec).Name.Name] = true
				}
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			why := misreadNode(n, info)
			if why == "" {
				return true
			}
			at := fset.Position(n.Pos())
			why = fmt.Sprintf("%s (%s:%d)", why, filepath.Base(at.Filename), at.Line)
			if f.misread == "" {
				f.misread = why
			}
			if name := genericName(n); name != "" {
				f.generics = append(f.generics, name)
			}
			return true
		})
	}
	return f
}

// genericName is the name n declares when it is a generic func or type
// (not a method), else "".
func genericName(n ast.Node) string {
	switch n := n.(type) {
	case *ast.FuncDecl:
		if n.Recv == nil && n.Type.TypeParams != nil {
			return n.Name.Name
		}
	case *ast.TypeSpec:
		if n.TypeParams != nil {
			return n.Name.Name
		}
	}
	return ""
}

// importerFunc is a types.Importer.
type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
