package workerbuild

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// How the worker gets into the project's module. The generated main
// package must sit inside the project's module so that it can import the
// module's internal packages and see exactly the module graph `go build`
// sees; nothing may be written into the project. So the build runs in the
// project folder with -overlay, which places the main package and the
// dependency tables at <root>/trestle_eval_worker without writing them
// there, and with -modfile, an alternate go.mod (the project's, plus the
// requirements of the worker loop) kept in the build's own folder. A
// generated module with a replace directive pointing at the project was
// the other route; it was not taken because the project's internal
// packages are not importable from another module and its own replace
// and exclude directives would not apply.

// The yaegi version the worker loop is built against, and its go.sum lines
// (the same as trestle's own go.sum; a test keeps them equal).
const (
	yaegiPath    = "github.com/traefik/yaegi"
	yaegiVersion = "v0.16.1"
	yaegiSum     = "github.com/traefik/yaegi v0.16.1 h1:f1De3DVJqIDKmnasUF6MwmWv1dSEEat0wcpXhD2On3E=\n" +
		"github.com/traefik/yaegi v0.16.1/go.mod h1:4eVhbPb3LnD2VigQjhYbEJ69vDRFdT2HQNrXx8eEwUY=\n"
)

// Module paths of the generated modules (".invalid" can never be a real one).
const (
	stdModule  = "trestle.invalid/evalstd"
	loopModule = "trestle.invalid/evalworker"
	genModule  = "trestle.invalid/evalgen"
	bareModule = "trestle.invalid/evalmain" // the main module when the project has no go.mod
)

// mainDir is where the worker's main package appears to be.
func (b *build) mainDir() string {
	if b.plan.Module == "" {
		return filepath.Join(b.work, "mod", workerDir)
	}
	return filepath.Join(b.o.Root, b.plan.workerDir())
}

// workerDir is Plan.WorkerDir, or the default for a plan made elsewhere.
func (p *Plan) workerDir() string {
	if p.WorkerDir == "" {
		return workerDir
	}
	return p.WorkerDir
}

// modRoot is the folder of the main module of the build: the project, or
// a generated module when the project has no go.mod.
func (b *build) modRoot() (string, error) {
	if b.plan.Module != "" {
		return b.o.Root, nil
	}
	dir := filepath.Join(b.work, "mod")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("build the native evaluator: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+bareModule+"\n\ngo 1.22\n"), 0o644); err != nil {
		return "", fmt.Errorf("build the native evaluator: %w", err)
	}
	return dir, nil
}

func relDir(root, dir string) string {
	rel, err := filepath.Rel(root, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return ""
	}
	return rel
}

// writeModFile writes the alternate go.mod (the project's plus the worker's
// requirements) and its go.sum beside it.
func (b *build) writeModFile(modRoot, modPath, loopDir, stdDir string, groups []*tableGroup) error {
	data, err := os.ReadFile(filepath.Join(modRoot, "go.mod"))
	if err != nil {
		return fmt.Errorf("build the native evaluator: read go.mod: %w", err)
	}
	mf, err := modfile.Parse(filepath.Join(modRoot, "go.mod"), data, nil)
	if err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	have := ""
	for _, r := range mf.Require {
		if r.Mod.Path == yaegiPath {
			have = r.Mod.Version
		}
	}
	if have == "" || semver.Compare(have, yaegiVersion) < 0 {
		if err := mf.AddRequire(yaegiPath, yaegiVersion); err != nil {
			return fmt.Errorf("build the native evaluator: %w", err)
		}
	}
	replaced := map[string]string{stdModule: stdDir, loopModule: loopDir}
	for _, g := range groups {
		if g.module != "" && g.cached && !g.dropped {
			replaced[g.module] = g.dir
		}
	}
	for mod, dir := range replaced {
		if err := mf.AddRequire(mod, "v0.0.0"); err != nil {
			return fmt.Errorf("build the native evaluator: %w", err)
		}
		if err := mf.AddReplace(mod, "", dir, ""); err != nil {
			return fmt.Errorf("build the native evaluator: %w", err)
		}
	}
	out, err := mf.Format()
	if err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	if err := os.WriteFile(modPath, out, 0o644); err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	sum, _ := os.ReadFile(filepath.Join(modRoot, "go.sum"))
	if len(sum) > 0 && sum[len(sum)-1] != '\n' {
		sum = append(sum, '\n')
	}
	sum = append(sum, yaegiSum...)
	return os.WriteFile(strings.TrimSuffix(modPath, ".mod")+".sum", sum, 0o644)
}

// writeOverlay writes main.go and the overlay that places it at
// <module root>/trestle_eval_worker and the tables of each group in the
// group's folder.
func (b *build) writeOverlay(groups []*tableGroup) (string, error) {
	mainSrc := filepath.Join(b.work, "main.go")
	if err := os.WriteFile(mainSrc, []byte(b.mainSource(groups)), 0o644); err != nil {
		return "", fmt.Errorf("build the native evaluator: %w", err)
	}
	replace := map[string]string{filepath.Join(b.mainDir(), "main.go"): mainSrc}
	for _, g := range groups {
		if g.dest == "" || g.dropped {
			continue
		}
		entries, err := os.ReadDir(g.dir)
		if err != nil {
			return "", fmt.Errorf("build the native evaluator: %w", err)
		}
		for _, e := range entries {
			replace[filepath.Join(g.dest, e.Name())] = filepath.Join(g.dir, e.Name())
		}
	}
	data, _ := json.Marshal(map[string]any{"Replace": replace})
	path := filepath.Join(b.work, "overlay.json")
	return path, os.WriteFile(path, data, 0o644)
}

// mainSource is the worker's main package: it imports every table group
// and every native package main may import (so that a package whose table
// the generator could not write still compiles, and fails the build with
// its problems when it does not).
func (b *build) mainSource(groups []*tableGroup) string {
	var imports, tables strings.Builder
	for i, g := range groups {
		if !g.dropped {
			fmt.Fprintf(&imports, "\tg%d %q\n", i, g.importPath)
			fmt.Fprintf(&tables, "g%d.Symbols, ", i)
		}
	}
	for _, p := range b.plan.Packages {
		if p.linked(b.o.Link) && p.home == "" {
			fmt.Fprintf(&imports, "\t_ %q\n", p.Path)
		}
	}
	return fmt.Sprintf(mainFile, imports.String(), b.tc.GOVERSION, tables.String())
}
