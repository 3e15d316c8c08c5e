package workerbuild

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"trestle/app/eval/internal/sweep"
	"trestle/app/task"
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
		sweep.MarkUsed(filepath.Dir(bin), time.Now()) // for prune: the most recently used stay
		return Result{Binary: bin, Key: key, Cached: true, Skipped: ReadSkipped(bin)}, nil
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
		return Result{Binary: bin, Key: key, Cached: true, Skipped: ReadSkipped(bin)}, nil
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
	module := b.plan.Module
	if module == "" {
		module = bareModule
	}
	modPath := filepath.Join(b.work, "go.mod")
	if err := b.writeModFile(modRoot, modPath, loopDir, stdDir, nil); err != nil {
		return err
	}
	b.goflags = []string{"-mod=mod", "-modfile=" + modPath}
	groups := b.groups(modRoot, module)
	if err := b.makeTables(ctx, gen, modRoot, groups); err != nil {
		return err
	}
	if err := b.writeModFile(modRoot, modPath, loopDir, stdDir, groups); err != nil {
		return err
	}
	out := filepath.Join(b.work, "worker")
	if err := b.compileRetrying(ctx, modRoot, stdDir, groups, out); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	// What was left out, for the answers of a cached worker (before the
	// binary, which marks the entry complete).
	os.WriteFile(filepath.Join(filepath.Dir(bin), skippedFile), []byte(strings.Join(b.skipped, "\n")), 0o644)
	if err := os.Rename(out, bin); err != nil && !isFile(bin) {
		return fmt.Errorf("build the native evaluator: keep the binary: %w", err)
	}
	prune(filepath.Join(b.cache, "workers"), keepWorkers, filepath.Dir(bin))
	removeUnused(filepath.Join(b.cache, "src", "tables"))
	b.progress(Event{Phase: PhaseReady, Message: "the native evaluator is ready"})
	return nil
}

// skippedFile, beside a cached worker, lists Result.Skipped, one a line.
const skippedFile = "skipped.txt"

// ReadSkipped is the Result.Skipped of the cached worker bin. Safe for
// concurrent use.
func ReadSkipped(bin string) []string {
	data, err := os.ReadFile(filepath.Join(filepath.Dir(bin), skippedFile))
	if err != nil || len(data) == 0 {
		return nil
	}
	return strings.Split(string(data), "\n")
}

// maxTableRetries is how many times a compile is retried after dropping
// generated tables that did not compile (extract can write a table that
// names a type the worker may not import).
const maxTableRetries = 3

// compileRetrying compiles, dropping tables that fail to compile.
func (b *build) compileRetrying(ctx context.Context, modRoot, stdDir string, groups []*tableGroup, out string) error {
	for try := 0; ; try++ {
		err := b.compile(ctx, modRoot, groups, out)
		var be *BuildError
		if err == nil || !errors.As(err, &be) || try == maxTableRetries {
			return err
		}
		dropped := append(dropBadStdTables(be.Problems, stdDir), dropBadGroups(be.Problems, groups, b.o.Root)...)
		for _, d := range dropped {
			b.skipped = append(b.skipped, d+": its symbol table did not compile; it is interpreted from source instead")
		}
		unlinked := dropUnlinked(be.Output, groups)
		b.skipped = append(b.skipped, unlinked...)
		if len(dropped) == 0 && len(unlinked) == 0 {
			return err
		}
	}
}

// Link errors: a symbol table keeps every exported function of its package
// alive, where an ordinary build drops the ones nothing calls; one of them
// may refer to a symbol that is defined nowhere (modernc.org/libc's
// X__libc_sigaction, with the internal linker's "relocation target ... not
// defined" or gcc's "undefined reference to"). Such a package's table is
// left out and the build tried again: the package stays linked as what
// other packages import, and is interpreted from source when an input
// imports it itself.
var (
	relocation   = regexp.MustCompile(`(\S+): relocation target (\S+) not defined`)
	undefinedRef = regexp.MustCompile("undefined reference to [`'\"]([^`'\"]+)[`'\"]")
	inFunction   = regexp.MustCompile("in function [`'\"]([^`'\"]+)[`'\"]")
)

// dropUnlinked leaves out of the build the tables of the packages whose
// functions the linker could not link, and says which and why.
func dropUnlinked(output string, groups []*tableGroup) []string {
	var out []string
	drop := func(from, target string) {
		for _, sym := range []string{from, target} {
			pkg := symbolPackage(sym)
			if pkg != "" && dropTable(groups, pkg) {
				out = append(out, fmt.Sprintf("%s: its symbol table did not link (%s refers to %s, which is defined nowhere); it is interpreted from source instead", pkg, from, target))
				return
			}
		}
	}
	lastFunc := ""
	for _, line := range strings.Split(output, "\n") {
		if m := inFunction.FindStringSubmatch(line); m != nil {
			lastFunc = m[1]
		}
		if m := relocation.FindStringSubmatch(line); m != nil {
			drop(m[1], m[2])
		} else if m := undefinedRef.FindStringSubmatch(line); m != nil {
			drop(lastFunc, m[1])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// symbolPackage is the import path of a linker symbol's package:
// "modernc.org/libc.Xsigaction" and "example.com/m/p.(*T).M" give
// "modernc.org/libc" and "example.com/m/p".
func symbolPackage(sym string) string {
	slash := strings.LastIndexByte(sym, '/') + 1
	dot := strings.IndexByte(sym[slash:], '.')
	if dot < 0 {
		return ""
	}
	return sym[:slash+dot]
}

// dropTable leaves the table of pkg out of the build, reporting whether
// there was one.
func dropTable(groups []*tableGroup, pkg string) bool {
	for _, g := range groups {
		if g.dropped || !slices.Contains(g.paths, pkg) {
			continue
		}
		if g.module != "" {
			g.dropped = true
			return true
		}
		return os.Remove(filepath.Join(g.dir, tableFile(pkg))) == nil
	}
	return false
}

// compile writes the main package and the overlay and runs go build.
func (b *build) compile(ctx context.Context, modRoot string, groups []*tableGroup, out string) error {
	module := b.plan.Module
	if module == "" {
		module = bareModule
	}
	overlay, err := b.writeOverlay(groups)
	if err != nil {
		return err
	}
	// -s -w: no symbol table or DWARF, which nobody debugs the worker with
	// and which take a good part of linking a program that keeps every
	// exported symbol of the standard library; tracebacks still name
	// functions and lines. -buildvcs=false, as the compiled path does: the
	// worker needs no VCS stamp, and asking git for one can fail the build
	// in a repository git refuses (ownership, a broken config).
	args := []string{"build", "-v", "-ldflags=-s -w", "-buildvcs=false", "-overlay=" + overlay, "-o", out}
	if len(b.o.Tags) > 0 {
		args = append(args, "-tags="+strings.Join(b.o.Tags, ","))
	}
	cmd := buildCommand(ctx, "go", append(args, module+"/"+b.plan.workerDir())...)
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
		b.progress(Event{Phase: PhaseFailed, Message: be.Short(), Problems: problems})
		return be
	}
	return nil
}

// Short says in one line why the build failed: the first problem, or the
// last lines of the output that are not command lines (a gcc invocation
// is thousands of characters), at most about 300 characters.
func (e *BuildError) Short() string {
	if len(e.Problems) > 0 {
		p := e.Problems[0]
		s := fmt.Sprintf("%s:%d:%d: %s", p.Path, p.Line, p.Col, p.Message)
		if n := len(e.Problems) - 1; n > 0 {
			s += fmt.Sprintf(" (and %d more)", n)
		}
		return s
	}
	var keep []string
	for _, line := range strings.Split(strings.TrimSpace(e.Output), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || len(line) > 300 || commandLine.MatchString(line) {
			continue
		}
		keep = append(keep, line)
	}
	if len(keep) > 2 {
		keep = keep[len(keep)-2:]
	}
	s := strings.Join(keep, "; ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	if s == "" {
		s = "go build failed"
	}
	return s
}

// commandLine matches the lines of a failed link that repeat the command
// that ran ("/usr/bin/gcc -m64 ...", "running gcc failed: exit status 1").
var commandLine = regexp.MustCompile(`^(\S*/)?(gcc|clang|cc|ld|collect2)\b|^running \S+ failed`)
