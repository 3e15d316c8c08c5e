package workerbuild

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Package modes.
const (
	ModeNative      = "native"      // linked into the worker binary
	ModeInterpreted = "interpreted" // interpreted from source by yaegi
	ModeNone        = "none"        // neither (package main, a broken package)
)

// Package is one package of the selection, and how the evaluator serves it.
type Package struct {
	Path   string   `json:"path"`
	Mode   string   `json:"mode"`
	Reason string   `json:"reason"`
	Dir    string   `json:"-"`
	files  []string // the source files of a package of the project's own module
	// module is "path@version" of the module that provides a dependency
	// at a version (not the project's own, not a replacement folder): its
	// symbol table is the same in every project and is cached (tables.go).
	module string
	// home is the generated package that holds the table of a project
	// package the worker's main package may not import (tableHome), or "".
	home string
	// onImport marks a native package of the project (its own module, or
	// a dependency replaced by a folder): it is linked only into workers
	// built for inputs that import it (Options.Link), because linking a
	// package runs its init, and the project's init must not run on an
	// input that never imported it.
	onImport bool
	imports  []string // what it imports, for OnImport
}

// Plan is what a selection's native worker links: the standard library of
// the toolchain, the dependencies, and the project's packages that yaegi
// cannot interpret. It is immutable once made.
type Plan struct {
	Root      string
	Module    string // "" without go.mod
	GoVersion string // "go1.26.8"
	Packages  []Package
	// WorkerDir is the folder, at the module root, where the overlay puts
	// the worker's main package: workerDir, or workerDir with a number
	// when the project has a folder of that name (the overlay would mix
	// the project's files into the worker).
	WorkerDir string
	// tablesDir is the name of the generated packages beside internal
	// folders (tableHome), chosen likewise.
	tablesDir string
}

// Native lists the import paths the worker links, besides the standard
// library, when it is built with link (Options.Link).
func (p *Plan) Native(link ...string) []string {
	var out []string
	for _, pkg := range p.Packages {
		if pkg.linked(link) {
			out = append(out, pkg.Path)
		}
	}
	return out
}

// OnImport reports whether the package is one of the project's native
// packages that a worker links only when an input imports it.
func (pkg Package) OnImport() bool { return pkg.onImport && pkg.Mode == ModeNative }

// linked reports whether a worker built with link (Options.Link) links pkg.
func (pkg Package) linked(link []string) bool {
	return pkg.Mode == ModeNative && (!pkg.onImport || slices.Contains(link, pkg.Path))
}

// OnImport returns the project's native packages (linked only on import)
// that importing paths needs, directly or through the project's own
// packages, sorted: a worker that interprets paths must link them.
func (p *Plan) OnImport(paths []string) []string {
	return p.reach(paths, func(pkg *Package) bool { return pkg.onImport && pkg.Mode == ModeNative })
}

// Project returns the project's packages (its module's, and folders that
// replace modules) that importing paths loads, directly or through one
// another, sorted: the ones whose init code runs.
func (p *Plan) Project(paths []string) []string {
	return p.reach(paths, func(*Package) bool { return true })
}

// reach walks the project's packages from paths and returns those that
// want accepts.
func (p *Plan) reach(paths []string, want func(*Package) bool) []string {
	index := map[string]*Package{}
	for i := range p.Packages {
		index[p.Packages[i].Path] = &p.Packages[i]
	}
	seen := map[string]bool{}
	var out []string
	var visit func(path string)
	visit = func(path string) {
		pkg := index[path]
		if pkg == nil || seen[path] || (pkg.files == nil && !pkg.onImport) {
			return // not the project's (a dependency's imports are linked with it)
		}
		seen[path] = true
		if want(pkg) {
			out = append(out, path)
		}
		for _, dep := range pkg.imports {
			visit(dep)
		}
	}
	for _, path := range paths {
		visit(path)
	}
	slices.Sort(out)
	return out
}

// listed is the part of `go list -json` the plan reads.
type listed struct {
	ImportPath string
	Name       string
	Dir        string
	Standard   bool
	Module     *struct {
		Path, Version string
		Main          bool
		Replace       *struct{ Path, Version string }
	}
	GoFiles  []string
	CgoFiles []string
	SFiles   []string
	Imports  []string
	Error    *struct{ Err string }
}

// workerDir is the folder, inside the project's module, where the build's
// overlay places the worker's main package. It is at the module root so
// that the main package may import the module's top-level internal
// packages.
const workerDir = "trestle_eval_worker"

// MakePlan lists the selection's packages with `go list -deps` and decides,
// for each one outside the standard library, native or interpreted.
func MakePlan(ctx context.Context, o Options) (*Plan, error) {
	env, err := goEnv(ctx, o)
	if err != nil {
		return nil, err
	}
	p := &Plan{Root: o.Root, Module: o.Module, GoVersion: env.GOVERSION, WorkerDir: workerDir, tablesDir: tablesDir}
	if _, err := os.Stat(filepath.Join(o.Root, "go.mod")); err != nil {
		p.Module = ""
		return p, nil
	}
	args := []string{"list", "-e", "-deps", "-json=ImportPath,Name,Dir,Standard,Module,GoFiles,CgoFiles,SFiles,Imports,Error"}
	if len(o.Tags) > 0 {
		args = append(args, "-tags="+strings.Join(o.Tags, ","))
	}
	cmd := exec.CommandContext(ctx, "go", append(args, "./...")...)
	cmd.Dir, cmd.Env = o.Root, o.environ()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("list the project's packages (go list -deps ./...): %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	imports := map[string][]string{}
	for {
		var l listed
		if err := dec.Decode(&l); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("read go list's answer: %w", err)
		}
		if l.Standard || l.ImportPath == "" {
			continue
		}
		imports[l.ImportPath] = l.Imports
		pkg := classify(l, p.Module)
		pkg.imports = l.Imports
		if why := o.Compile[pkg.Path]; why != "" && pkg.Mode == ModeInterpreted && pkg.files != nil {
			pkg = compileAnyway(pkg, why, p.Module)
		}
		if why := excluded(o.Interpret, pkg); why != "" {
			pkg.Mode, pkg.Reason, pkg.home = ModeInterpreted, why, ""
		}
		p.Packages = append(p.Packages, pkg)
	}
	compileImported(p.Packages, imports, p.Module)
	slices.SortFunc(p.Packages, func(a, b Package) int { return strings.Compare(a.Path, b.Path) })
	p.chooseDirs()
	return p, nil
}

// excluded says why a package that Options.Interpret names is left out of
// the native set, or "".
func excluded(interpret []string, pkg Package) string {
	if pkg.Mode != ModeNative || !slices.Contains(interpret, pkg.Path) {
		return ""
	}
	return "excluded from the native set by .trestle.json (interpret): interpreted from source, which may fail"
}

// chooseDirs picks the generated folders' names so that none is a folder
// of the project: the overlay would add the worker's files to the
// project's own (and compile the project's files into the worker).
func (p *Plan) chooseDirs() {
	if p.Module == "" {
		return // the main package is in a generated module
	}
	var parents []string // the folders, relative to the root, that get a tables package
	for _, pkg := range p.Packages {
		if pkg.home != "" {
			parents = append(parents, strings.TrimPrefix(strings.TrimSuffix(pkg.home, "/"+tablesDir), p.Module))
		}
	}
	taken := func(name string) bool {
		if _, err := os.Lstat(filepath.Join(p.Root, name)); err == nil {
			return true
		}
		for _, parent := range parents {
			if _, err := os.Lstat(filepath.Join(p.Root, filepath.FromSlash(parent), name+"_tables")); err == nil {
				return true
			}
		}
		return false
	}
	name := workerDir
	for n := 2; taken(name); n++ {
		name = fmt.Sprintf("%s_%d", workerDir, n)
	}
	p.WorkerDir, p.tablesDir = name, name+"_tables"
	for i := range p.Packages {
		if h := p.Packages[i].home; h != "" {
			p.Packages[i].home = strings.TrimSuffix(h, tablesDir) + p.tablesDir
		}
	}
}

// classify decides how one non-standard package is served.
func classify(l listed, module string) Package {
	pkg := Package{Path: l.ImportPath, Dir: l.Dir}
	main := l.Module != nil && l.Module.Main
	switch {
	case l.Error != nil:
		pkg.Mode, pkg.Reason = ModeNone, "does not build: "+l.Error.Err
	case l.Name == "main":
		pkg.Mode, pkg.Reason = ModeNone, "a main package cannot be imported"
	case !main:
		pkg.Mode, pkg.Reason = ModeNative, "a dependency: linked natively"
		if m := l.Module; m != nil && m.Version != "" && (m.Replace == nil || m.Replace.Version != "") {
			pkg.module = m.Path + "@" + m.Version
			if m.Replace != nil {
				pkg.module = m.Replace.Path + "@" + m.Replace.Version
			}
		} else {
			// A folder the project replaces a module with is the
			// project's code too: linked when an input imports it.
			pkg.onImport = true
			pkg.Reason = "a dependency replaced by a folder: linked natively when an input imports it (its init runs then)"
		}
	default:
		for _, f := range slices.Concat(l.GoFiles, l.CgoFiles, l.SFiles) {
			pkg.files = append(pkg.files, filepath.Join(l.Dir, f))
		}
		pkg.onImport = true
		if why := needsNative(l); why != "" {
			pkg.Mode, pkg.Reason = ModeNative, why+": compiled in when an input imports it, so its init runs only then (edits need a rebuild, which starts by itself)"
		} else {
			pkg.Mode, pkg.Reason = ModeInterpreted, "the project's own code: interpreted from source (unexported names reachable, edits live)"
		}
	}
	if pkg.Mode == ModeNative && !importable(pkg.Path, module) {
		if home, ok := tableHome(pkg.Path, module); ok && main {
			pkg.home = home
			return pkg
		}
		pkg.Mode = ModeInterpreted
		pkg.Reason = "internal to another tree, so the worker cannot link it: interpreted from source"
		if main {
			pkg.Reason = "needs native code but is internal below an internal folder, so the worker cannot link it: interpreted from source, which may fail"
		}
	}
	return pkg
}

// tablesDir is the generated package, beside the parent of a project's
// internal folder, that holds the symbol tables of that folder's native
// packages.
const tablesDir = "trestle_eval_worker_tables"

// tableHome says where the symbol table of a project package that the
// worker's main package may not import goes: a/internal/x may only be
// imported from within a/, so its table is compiled into a generated
// package a/trestle_eval_worker_tables (placed there by the build's
// overlay, like the main package), which main may import and which may
// import a/internal/x. ok is false when that package would itself be
// internal to a tree that main is outside (a/internal/b/internal/c).
func tableHome(path, module string) (home string, ok bool) {
	i := strings.LastIndex(path, "/internal/")
	if i < 0 && strings.HasSuffix(path, "/internal") {
		i = len(path) - len("/internal")
	}
	if i < 0 || module == "" || !strings.HasPrefix(path[:i]+"/", module+"/") {
		return "", false
	}
	home = path[:i] + "/" + tablesDir
	return home, importable(home, module)
}

// linkable reports whether the worker can link a project package: it can
// import it, or the package's table can sit beside it (tableHome).
func linkable(path, module string) bool {
	_, ok := tableHome(path, module)
	return importable(path, module) || ok
}

// compileAnyway makes native a project package the interpreter could not
// import (Options.Compile), when the worker can link it.
func compileAnyway(pkg Package, why, module string) Package {
	if !linkable(pkg.Path, module) {
		return pkg
	}
	if !importable(pkg.Path, module) {
		pkg.home, _ = tableHome(pkg.Path, module)
	}
	if len(why) > 200 {
		why = why[:200] + "..."
	}
	pkg.Mode = ModeNative
	pkg.Reason = "the interpreter could not import it (" + why + "): compiled in (edits need a rebuild, which starts by itself)"
	return pkg
}

// compileImported makes native the interpreted project packages that a
// native project package imports (directly or not): interpreted, they would
// be a second copy, with types that the compiled one does not accept and
// state of their own.
func compileImported(pkgs []Package, imports map[string][]string, module string) {
	index := map[string]int{}
	for i, p := range pkgs {
		index[p.Path] = i
	}
	var visit func(from, path string)
	visit = func(from, path string) {
		for _, dep := range imports[path] {
			i, ok := index[dep]
			if !ok || pkgs[i].Mode != ModeInterpreted || pkgs[i].files == nil || !linkable(dep, module) {
				continue
			}
			pkgs[i].Mode = ModeNative
			if !importable(dep, module) {
				pkgs[i].home, _ = tableHome(dep, module)
			}
			pkgs[i].Reason = "imported by " + from + ", which is compiled in: compiled in too, so that both see the same types (edits need a rebuild, which starts by itself)"
			visit(from, dep)
		}
	}
	for _, p := range slices.Clone(pkgs) {
		if p.Mode == ModeNative && p.files != nil {
			visit(p.Path, p.Path)
		}
	}
}

// needsNative says why yaegi cannot interpret a project package, or "".
func needsNative(l listed) string {
	switch {
	case len(l.CgoFiles) > 0:
		return "uses cgo"
	case len(l.SFiles) > 0:
		return "has assembly"
	case slices.Contains(l.Imports, "unsafe"):
		return "uses unsafe"
	}
	for _, f := range l.GoFiles {
		if data, err := os.ReadFile(filepath.Join(l.Dir, f)); err == nil && bytes.Contains(data, []byte("//go:linkname")) {
			return "uses //go:linkname"
		}
	}
	return ""
}

// importable reports whether the worker's main package (at the module
// root) may import path: an internal package only when its parent is the
// module root or above.
func importable(path, module string) bool {
	if strings.HasPrefix(path, "vendor/") || strings.Contains(path, "/vendor/") {
		return false
	}
	i := strings.LastIndex(path, "/internal/")
	if i < 0 && strings.HasSuffix(path, "/internal") {
		i = len(path) - len("/internal")
	}
	if i < 0 {
		return true
	}
	parent := path[:i]
	return module != "" && (module == parent || strings.HasPrefix(module+"/", parent+"/"))
}
