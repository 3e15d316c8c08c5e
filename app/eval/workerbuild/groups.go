package workerbuild

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"trestle/app/eval/internal/sweep"
	"trestle/app/task"
)

// Where each native package's symbol table goes. Tables are generated
// Go packages that the worker's main package imports:
//   - a dependency provided by a module at a version gets a table module
//     of its own in the per-user cache, keyed by the package, the module
//     version, the toolchain, GOOS/GOARCH, tags and environment (tableKey).
//     It is generated once, and compiled once into the Go build cache: a
//     second project, or a second selection, with the same dependency
//     reuses both (the table of golang.org/x/sys/unix alone is 1.3 MB of
//     Go and takes seconds to compile). Separate packages also compile in
//     parallel.
//   - the project's own native packages, and dependencies from a
//     replacement folder, go into one package the overlay places at
//     <module root>/trestle_eval_worker/deps: built per project.
//   - a native project package below an internal folder (a/internal/x)
//     goes into a package the overlay places beside that folder
//     (a/trestle_eval_worker_tables, see tableHome in plan.go), the only
//     place from which both it may be imported and main may import.

// tableGroup is one generated package of symbol tables.
type tableGroup struct {
	importPath string   // what main imports
	dir        string   // the real folder of its files
	dest       string   // the folder the overlay puts them in; "" for a cached table module
	module     string   // a cached table module's path, "" otherwise
	paths      []string // the packages whose tables it holds
	cached     bool     // a table module already in the cache
	dropped    bool     // left out of this build: its table did not compile
}

// tablesModulePrefix starts the module paths of cached table modules.
const tablesModulePrefix = "trestle.invalid/evaltables/"

// groups sorts the plan's native packages into table groups; the deps
// group is first.
func (b *build) groups(modRoot, module string) []*tableGroup {
	deps := &tableGroup{importPath: module + "/" + b.plan.workerDir() + "/deps", dir: filepath.Join(b.work, "deps"), dest: filepath.Join(b.mainDir(), "deps")}
	out := []*tableGroup{deps}
	homes := map[string]*tableGroup{}
	for _, pkg := range b.plan.Packages {
		switch {
		case !pkg.linked(b.o.Link):
		case pkg.home != "":
			g := homes[pkg.home]
			if g == nil {
				rel := strings.TrimPrefix(pkg.home, module+"/")
				g = &tableGroup{importPath: pkg.home, dir: filepath.Join(b.work, "home-"+fmt.Sprint(len(homes))), dest: filepath.Join(modRoot, filepath.FromSlash(rel))}
				homes[pkg.home] = g
				out = append(out, g)
			}
			g.paths = append(g.paths, pkg.Path)
		case pkg.module != "":
			key := b.tableKey(pkg)
			g := &tableGroup{importPath: tablesModulePrefix + key, module: tablesModulePrefix + key,
				dir: filepath.Join(b.cache, "src", "tables", key), paths: []string{pkg.Path}}
			g.cached = sweep.MarkUsed(g.dir, time.Now()) // for removeUnused: the ones in use stay
			out = append(out, g)
		default:
			deps.paths = append(deps.paths, pkg.Path)
		}
	}
	return out
}

// tableKey is the cache key of a dependency's table module.
func (b *build) tableKey(pkg Package) string {
	h := sha256.New()
	fmt.Fprintf(h, "trestle-eval-table v1\x00%s\x00%s\x00%s\x00%s\x00%s\x00", b.tc.GOVERSION, b.tc.GOOS, b.tc.GOARCH, b.tc.settings(), yaegiVersion)
	fmt.Fprintf(h, "%s\x00%s\x00", genHash(), hashBytes([]byte(depsSymbolsFile)))
	tags := slices.Clone(b.o.Tags)
	slices.Sort(tags)
	fmt.Fprintf(h, "tags %q\x00", tags)
	for _, kv := range sortedEnv(b.o.Env) {
		fmt.Fprintf(h, "env %q\x00", kv)
	}
	fmt.Fprintf(h, "%s\x00%s\x00", pkg.Path, pkg.module)
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// makeTables generates the tables that no cache holds, in one run of the
// generator in the project (so that it sees the project's module graph),
// and fills each group's folder.
func (b *build) makeTables(ctx context.Context, gen, modRoot string, groups []*tableGroup) error {
	var paths []string
	for _, g := range groups {
		if !g.cached {
			paths = append(paths, g.paths...)
		}
	}
	out := filepath.Join(b.work, "gen")
	if err := b.tables(ctx, gen, out, "deps", modRoot, paths, b.goflags...); err != nil {
		return err
	}
	for _, g := range groups {
		if err := g.fill(out); err != nil {
			return err
		}
	}
	return nil
}

// fill moves the group's generated tables from gen into its folder and
// adds the Symbols declaration (and, for a table module, its go.mod). A
// table module whose table was not made is left out of the build.
func (g *tableGroup) fill(gen string) error {
	if g.cached {
		return nil
	}
	put := func(dir string) error {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for _, p := range g.paths {
			name := tableFile(p)
			if err := os.Rename(filepath.Join(gen, name), filepath.Join(dir, name)); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "zz_symbols.go"), []byte(depsSymbolsFile), 0o644); err != nil {
			return err
		}
		if g.module != "" {
			return os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+g.module+"\n\ngo 1.22\n"), 0o644)
		}
		return nil
	}
	if g.module == "" {
		if err := put(g.dir); err != nil {
			return fmt.Errorf("build the native evaluator: %w", err)
		}
		return nil
	}
	if _, err := os.Stat(filepath.Join(gen, tableFile(g.paths[0]))); err != nil {
		g.dropped = true // skipped by the generator, which said why
		return nil
	}
	if err := writeOnce(g.dir, put); err != nil {
		return fmt.Errorf("build the native evaluator: keep the table of %s: %w", g.paths[0], err)
	}
	g.cached = true
	return nil
}

// tableFile is the name of the file the generator writes a package's table to.
func tableFile(path string) string {
	return strings.NewReplacer("/", "_", ".", "_", "-", "_", "~", "_").Replace(path) + ".go"
}

// dropBadGroups leaves out of the build the tables that compile problems
// point at: a file of an overlay group is removed, a cached table module
// is dropped from this build (it may compile in another project's graph).
// It returns the packages left out (or their table files' names).
// Problem paths inside the project are relative to root (task.ParseProblem).
func dropBadGroups(problems []task.Problem, groups []*tableGroup, root string) []string {
	var dropped []string
	for _, p := range problems {
		path := filepath.FromSlash(p.Path)
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		base := filepath.Base(path)
		if base == "zz_symbols.go" {
			continue
		}
		for _, g := range groups {
			switch {
			case g.dropped:
			case g.module != "" && strings.HasPrefix(path, g.dir+string(filepath.Separator)):
				g.dropped = true
				dropped = append(dropped, g.paths...)
			case g.module == "" && filepath.Dir(path) == g.dest:
				if os.Remove(filepath.Join(g.dir, base)) == nil {
					dropped = append(dropped, strings.TrimSuffix(base, ".go"))
				}
			}
		}
	}
	slices.Sort(dropped)
	return slices.Compact(dropped)
}
