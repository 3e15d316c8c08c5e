package workerbuild

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"

	"trestle/app/eval/evalworker"
	"trestle/app/task"
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

// Phases of a build, in Event.Phase.
const (
	PhasePlan    = "plan"    // listing the selection's packages
	PhaseTables  = "tables"  // generating symbol tables
	PhaseCompile = "compile" // go build
	PhaseReady   = "ready"   // the worker binary is ready
	PhaseFailed  = "failed"  // the build failed; Event.Problems says where
)

// Event is one step of a build's progress.
type Event struct {
	Phase    string
	Message  string
	Done     int // packages done in this phase
	Total    int // 0 when unknown
	Problems []task.Problem
}

// Result is a finished build.
type Result struct {
	Binary  string   // the worker executable
	Key     string   // the cache key it was built for
	Cached  bool     // it was already built
	Skipped []string // packages whose tables could not be made, with why
}

// BuildError is a failed worker build, with the compiler's problems.
type BuildError struct {
	Problems []task.Problem
	Output   string // the tail of the build's output
}

func (e *BuildError) Error() string {
	if len(e.Problems) > 0 {
		p := e.Problems[0]
		return fmt.Sprintf("build the native evaluator: %s:%d:%d: %s (and %d more problems)", p.Path, p.Line, p.Col, p.Message, len(e.Problems)-1)
	}
	return "build the native evaluator: " + strings.TrimSpace(e.Output)
}

// buildMu lets one worker build run at a time in this process: a build
// takes both cores of a small machine. It guards failed.
var buildMu sync.Mutex

// failed remembers the builds that did not compile, by key, so that each
// restart of the evaluator does not compile the same broken sources again:
// the key changes when they are fixed. Other failures (a download) are
// tried again.
var failed = map[string]*BuildError{}

// Build returns the native worker binary for the plan, building it when
// the cache has none: symbol tables for the standard library (once per
// toolchain) and for plan.Native(), then go build. progress, if not nil,
// hears each step; it is called on the building goroutine. A failed
// compile is a *BuildError with its problems.
func Build(ctx context.Context, o Options, plan *Plan, progress func(Event)) (Result, error) {
	if progress == nil {
		progress = func(Event) {}
	}
	cache, err := o.cacheDir()
	if err != nil {
		return Result{}, err
	}
	tc, err := goEnv(ctx, o)
	if err != nil {
		return Result{}, err
	}
	key, err := Key(o, plan, tc)
	if err != nil {
		return Result{}, err
	}
	bin := filepath.Join(cache, "workers", key, "worker")
	if isFile(bin) {
		now := time.Now()
		os.Chtimes(filepath.Dir(bin), now, now) // for prune: the most recently used stay
		return Result{Binary: bin, Key: key, Cached: true}, nil
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	if be := failed[key]; be != nil {
		return Result{Key: key}, be // the same sources failed to compile before
	}
	unlock, err := lockCache(ctx, cache)
	if err != nil {
		return Result{Key: key}, err
	}
	defer unlock()
	if isFile(bin) { // built while we waited
		return Result{Binary: bin, Key: key, Cached: true}, nil
	}
	b := &build{o: o, plan: plan, tc: tc, cache: cache, progress: progress}
	if err := b.run(ctx, bin); err != nil {
		var be *BuildError
		if errors.As(err, &be) && ctx.Err() == nil { // not a build killed by its cancellation
			failed[key] = be
		}
		return Result{Key: key, Skipped: b.skipped}, err
	}
	return Result{Binary: bin, Key: key, Skipped: b.skipped}, nil
}

// build is one run of Build.
type build struct {
	o        Options
	plan     *Plan
	tc       toolchain
	cache    string
	progress func(Event)
	work     string
	goflags  []string // -mod=mod and -modfile, for every go command in the project
	skipped  []string
}

func (b *build) run(ctx context.Context, bin string) error {
	loopDir, err := b.loopModule()
	if err != nil {
		return err
	}
	gen, err := b.generator(ctx)
	if err != nil {
		return err
	}
	stdDir, err := b.stdModule(ctx, gen)
	if err != nil {
		return err
	}
	removeStaleWork(filepath.Join(b.cache, "work"))
	if err := os.MkdirAll(filepath.Join(b.cache, "work"), 0o755); err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	if b.work, err = os.MkdirTemp(filepath.Join(b.cache, "work"), "build-"); err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	defer os.RemoveAll(b.work)
	modRoot, err := b.modRoot()
	if err != nil {
		return err
	}
	modPath := filepath.Join(b.work, "go.mod")
	if err := b.writeModFile(modRoot, modPath, loopDir, stdDir); err != nil {
		return err
	}
	b.goflags = []string{"-mod=mod", "-modfile=" + modPath}
	depsDir := filepath.Join(b.work, "deps")
	if err := b.tables(ctx, gen, depsDir, "deps", modRoot, b.plan.Native(), b.goflags...); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(depsDir, "zz_symbols.go"), []byte(depsSymbolsFile), 0o644); err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	out := filepath.Join(b.work, "worker")
	if err := b.compileRetrying(ctx, modRoot, stdDir, depsDir, out); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	if err := os.Rename(out, bin); err != nil && !isFile(bin) {
		return fmt.Errorf("build the native evaluator: keep the binary: %w", err)
	}
	prune(filepath.Join(b.cache, "workers"), keepWorkers, filepath.Dir(bin))
	b.progress(Event{Phase: PhaseReady, Message: "the native evaluator is ready"})
	return nil
}

// keepWorkers is how many worker builds the cache keeps (about 32 MB
// each): enough for a few projects and selections; the most recently
// used stay.
const keepWorkers = 12

// staleWork is the age past which a build folder left by a killed build
// is removed.
const staleWork = 24 * time.Hour

// prune removes all but the newest keep folders of dir, never keepDir.
func prune(dir string, keep int, keepDir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type aged struct {
		path string
		mod  time.Time
	}
	var all []aged
	for _, e := range entries {
		if info, err := e.Info(); err == nil && e.IsDir() {
			all = append(all, aged{filepath.Join(dir, e.Name()), info.ModTime()})
		}
	}
	slices.SortFunc(all, func(a, b aged) int { return b.mod.Compare(a.mod) })
	for i, a := range all {
		if i >= keep && a.path != keepDir {
			os.RemoveAll(a.path)
		}
	}
}

// removeStaleWork removes build folders that killed builds left behind.
func removeStaleWork(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleWork {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// maxTableRetries is how many times a compile is retried after dropping
// generated tables that did not compile (extract can write a table that
// names a type the worker may not import).
const maxTableRetries = 3

// compileRetrying compiles, dropping tables that fail to compile.
func (b *build) compileRetrying(ctx context.Context, modRoot, stdDir, depsDir, out string) error {
	for try := 0; ; try++ {
		err := b.compile(ctx, modRoot, depsDir, out)
		var be *BuildError
		if err == nil || !errors.As(err, &be) || try == maxTableRetries {
			return err
		}
		dropped := dropBadTables(be.Problems, stdDir, depsDir)
		if len(dropped) == 0 {
			return err
		}
		for _, d := range dropped {
			b.skipped = append(b.skipped, d+": its symbol table did not compile; it is interpreted from source instead")
		}
	}
}

// mainDir is where the worker's main package appears to be.
func (b *build) mainDir() string {
	if b.plan.Module == "" {
		return filepath.Join(b.work, "mod", workerDir)
	}
	return filepath.Join(b.o.Root, workerDir)
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

// compile writes the main package and the overlay and runs go build.
func (b *build) compile(ctx context.Context, modRoot, depsDir, out string) error {
	module := b.plan.Module
	if module == "" {
		module = bareModule
	}
	overlay, err := b.writeOverlay(module, depsDir)
	if err != nil {
		return err
	}
	args := []string{"build", "-v", "-overlay=" + overlay, "-o", out}
	if len(b.o.Tags) > 0 {
		args = append(args, "-tags="+strings.Join(b.o.Tags, ","))
	}
	cmd := buildCommand(ctx, "go", append(args, module+"/"+workerDir)...)
	cmd.Dir, cmd.Env = modRoot, b.o.environ(b.goflags...)
	return b.runBuild(cmd, modRoot)
}

// runBuild runs go build, turning its -v lines into progress and its
// error lines into problems.
func (b *build) runBuild(cmd *exec.Cmd, modRoot string) error {
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("build the native evaluator: start go build: %w", err)
	}
	lower(cmd)
	var problems []task.Problem
	var tail []string
	done := 0
	sc := bufio.NewScanner(stderr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := task.ParseProblem(line, b.o.Root, relDir(b.o.Root, modRoot)); ok {
			problems = append(problems, p)
		}
		tail = append(tail, line)
		if len(tail) > 40 {
			tail = tail[1:]
		}
		if !strings.ContainsAny(line, " :") && line != "" {
			done++
			b.progress(Event{Phase: PhaseCompile, Message: "compiling " + line, Done: done})
		}
	}
	if err := cmd.Wait(); err != nil {
		be := &BuildError{Problems: problems, Output: strings.Join(tail, "\n")}
		b.progress(Event{Phase: PhaseFailed, Message: be.Error(), Problems: problems})
		return be
	}
	return nil
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
func (b *build) writeModFile(modRoot, modPath, loopDir, stdDir string) error {
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
	for mod, dir := range map[string]string{stdModule: stdDir, loopModule: loopDir} {
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

// writeOverlay writes main.go and the overlay that places it and the
// dependency tables at <module root>/trestle_eval_worker.
func (b *build) writeOverlay(module, depsDir string) (string, error) {
	mainSrc := filepath.Join(b.work, "main.go")
	var blank strings.Builder
	for _, p := range b.plan.Native() {
		fmt.Fprintf(&blank, "\t_ %q\n", p)
	}
	text := fmt.Sprintf(mainFile, module+"/"+workerDir+"/deps", blank.String(), b.tc.GOVERSION)
	if err := os.WriteFile(mainSrc, []byte(text), 0o644); err != nil {
		return "", fmt.Errorf("build the native evaluator: %w", err)
	}
	dir := b.mainDir()
	replace := map[string]string{filepath.Join(dir, "main.go"): mainSrc}
	entries, err := os.ReadDir(depsDir)
	if err != nil {
		return "", fmt.Errorf("build the native evaluator: %w", err)
	}
	for _, e := range entries {
		replace[filepath.Join(dir, "deps", e.Name())] = filepath.Join(depsDir, e.Name())
	}
	data, _ := json.Marshal(map[string]any{"Replace": replace})
	path := filepath.Join(b.work, "overlay.json")
	return path, os.WriteFile(path, data, 0o644)
}

// dropBadTables removes the generated tables that compile problems point
// at (a dependency table under the overlay's deps folder, or a standard
// library table in its cache folder) and returns their file names.
func dropBadTables(problems []task.Problem, stdDir, depsDir string) []string {
	var dropped []string
	for _, p := range problems {
		path, base := filepath.ToSlash(p.Path), filepath.Base(p.Path)
		var f string
		switch {
		case strings.HasPrefix(base, "zz_"):
			continue
		case strings.Contains(path, workerDir+"/deps/"):
			f = filepath.Join(depsDir, base)
		case strings.HasPrefix(p.Path, stdDir+string(filepath.Separator)):
			f = filepath.Join(stdDir, base)
		default:
			continue
		}
		if os.Remove(f) == nil {
			dropped = append(dropped, strings.TrimSuffix(base, ".go"))
		}
	}
	slices.Sort(dropped)
	return slices.Compact(dropped)
}

// tables runs the generator for paths with dir as the working folder and
// writes the tables into out.
func (b *build) tables(ctx context.Context, gen, out, pkg, dir string, paths []string, goflags ...string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	if len(paths) == 0 {
		return nil
	}
	args := []string{"-pkg", pkg, "-out", out, "-j", "2"}
	if len(b.o.Tags) > 0 {
		args = append(args, "-tags", strings.Join(b.o.Tags, ","))
	}
	cmd := buildCommand(ctx, gen, append(args, paths...)...)
	cmd.Dir, cmd.Env = dir, b.o.environ(goflags...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	var stderr tailBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("build the native evaluator: start the table generator: %w", err)
	}
	lower(cmd)
	sc := bufio.NewScanner(stdout)
	done := 0
	for sc.Scan() {
		done++
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "skip "); ok {
			b.skipped = append(b.skipped, rest)
		}
		b.progress(Event{Phase: PhaseTables, Message: "symbol table " + strings.TrimPrefix(line, "ok "), Done: done, Total: len(paths)})
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("build the native evaluator: the table generator failed: %v: %s", err, stderr.String())
	}
	return nil
}

// loopModule writes the worker loop's module (evalworker's own source)
// into the cache, once per version of that source.
func (b *build) loopModule() (string, error) {
	dir := filepath.Join(b.cache, "src", "evalworker-"+loopHash()[:16])
	return dir, writeOnce(dir, func(tmp string) error {
		entries, err := fs.ReadDir(evalworker.Source, ".")
		if err != nil {
			return err
		}
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			data, err := fs.ReadFile(evalworker.Source, e.Name())
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(tmp, e.Name()), data, 0o644); err != nil {
				return err
			}
		}
		mod := "module " + loopModule + "\n\ngo 1.22\n\nrequire " + yaegiPath + " " + yaegiVersion + "\n"
		if err := os.WriteFile(filepath.Join(tmp, "go.mod"), []byte(mod), 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(tmp, "go.sum"), []byte(yaegiSum), 0o644)
	})
}

// generator builds evalgen with the toolchain in use, once per toolchain.
func (b *build) generator(ctx context.Context) (string, error) {
	dir := filepath.Join(b.cache, "tools", "evalgen-"+b.tc.GOVERSION+"-"+b.tc.GOOS+"_"+b.tc.GOARCH+"-"+hashBytes([]byte(genSource))[:12])
	bin := filepath.Join(dir, "evalgen")
	if isFile(bin) {
		return bin, nil
	}
	b.progress(Event{Phase: PhaseTables, Message: "building the symbol table generator"})
	err := writeOnce(dir, func(tmp string) error {
		files := map[string]string{
			"main.go": genSource,
			"go.mod":  "module " + genModule + "\n\ngo 1.22\n\nrequire " + yaegiPath + " " + yaegiVersion + "\n",
			"go.sum":  yaegiSum,
		}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(tmp, name), []byte(text), 0o644); err != nil {
				return err
			}
		}
		cmd := buildCommand(ctx, "go", "build", "-o", "evalgen", ".")
		cmd.Dir, cmd.Env = tmp, b.o.environ("-mod=mod")
		var out tailBuffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("build the symbol table generator: %w", err)
		}
		lower(cmd)
		if err := cmd.Wait(); err != nil {
			return fmt.Errorf("build the symbol table generator: %v: %s", err, strings.TrimSpace(out.String()))
		}
		return nil
	})
	return bin, err
}

// stdModule generates the standard library's tables, once per toolchain.
func (b *build) stdModule(ctx context.Context, gen string) (string, error) {
	dir := filepath.Join(b.cache, "src", "evalstd-"+b.tc.GOVERSION+"-"+b.tc.GOOS+"_"+b.tc.GOARCH+"-"+hashBytes([]byte(genSource + stdSymbolsFile))[:12])
	return dir, writeOnce(dir, func(tmp string) error {
		paths, err := stdPackages(ctx, b.o)
		if err != nil {
			return err
		}
		if err := b.tables(ctx, gen, tmp, "evalstd", tmp, paths); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, "zz_symbols.go"), []byte(stdSymbolsFile), 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(tmp, "go.mod"), []byte("module "+stdModule+"\n\ngo 1.22\n"), 0o644)
	})
}

// stdPackages lists the standard library packages a program may import.
func stdPackages(ctx context.Context, o Options) ([]string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "std")
	cmd.Env = o.environ()
	cmd.Dir = os.TempDir() // outside any module: std only
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("list the standard library (go list std): %w", err)
	}
	var paths []string
	for _, p := range strings.Fields(string(out)) {
		if stdWanted(p) {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// stdWanted leaves out what no program imports or what cannot be linked
// into an ordinary binary.
func stdWanted(p string) bool {
	if strings.Contains(p, "internal") || strings.HasPrefix(p, "vendor/") || strings.HasPrefix(p, "cmd/") {
		return false
	}
	switch p {
	case "unsafe", "C", "syscall/js", "runtime/cgo", "runtime/race", "runtime/msan", "runtime/asan", "plugin", "builtin":
		return false
	}
	return !strings.HasPrefix(p, "simd")
}

// writeOnce fills dir with fill, through a temporary folder renamed into
// place, so that concurrent builds (two windows) never see half a folder.
func writeOnce(dir string, fill func(tmp string) error) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".tmp-"+filepath.Base(dir)+"-")
	if err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	if err := fill(tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, serr := os.Stat(dir); serr == nil {
			return nil // another process won the race
		}
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	return nil
}

// Key is the cache key of a worker: the toolchain, the selection's tags
// and environment, go.mod and go.sum, the worker loop and generator
// versions, the native package set and the source of the project's native
// packages.
func Key(o Options, plan *Plan, tc toolchain) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "trestle-eval-worker v1\x00%s\x00%s\x00%s\x00%s\x00", tc.GOVERSION, tc.GOOS, tc.GOARCH, yaegiVersion)
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", loopHash(), hashBytes([]byte(genSource)), hashBytes([]byte(stdSymbolsFile+depsSymbolsFile+mainFile)))
	tags := slices.Clone(o.Tags)
	slices.Sort(tags)
	fmt.Fprintf(h, "tags %q\x00", tags)
	keys := make([]string, 0, len(o.Env))
	for k := range o.Env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(h, "env %q=%q\x00", k, o.Env[k])
	}
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(o.Root, name))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("build the native evaluator: %w", err)
		}
		fmt.Fprintf(h, "%s %x\x00", name, sha256.Sum256(data))
	}
	for _, pkg := range plan.Packages {
		if pkg.Mode != ModeNative {
			continue
		}
		fmt.Fprintf(h, "native %s\x00", pkg.Path)
		for _, f := range pkg.files {
			data, err := os.ReadFile(f)
			if err != nil {
				return "", fmt.Errorf("build the native evaluator: %w", err)
			}
			rel, _ := filepath.Rel(o.Root, f) // relative: the same project elsewhere shares the build
			fmt.Fprintf(h, "%s %x\x00", filepath.ToSlash(rel), sha256.Sum256(data))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

var loopHashOnce = sync.OnceValue(func() string {
	h := sha256.New()
	entries, _ := fs.ReadDir(evalworker.Source, ".")
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_test.go") {
			continue // not part of the worker
		}
		data, _ := fs.ReadFile(evalworker.Source, e.Name())
		fmt.Fprintf(h, "%s %x\x00", e.Name(), sha256.Sum256(data))
	}
	return hex.EncodeToString(h.Sum(nil))
})

func loopHash() string { return loopHashOnce() }

func hashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// tailBuffer keeps the last 4 KiB written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - 4<<10; over > 0 {
		t.buf = t.buf[over:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

var _ io.Writer = (*tailBuffer)(nil)
