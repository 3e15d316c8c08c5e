package compiled

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"trestle/app/procgroup"
)

// Bounds of a compiled evaluation.
const (
	// BuildTimeout bounds one `go build`. It is apart from the caller's
	// deadline, which bounds the program's run: a cold first build of a
	// project's dependencies can take longer than an evaluation should.
	BuildTimeout = 3 * time.Minute
	// maxBuilds bounds the rebuilds of one input (see build).
	maxBuilds = 4
	// pkgDir is the folder, inside the project root, where the overlay puts
	// the generated main package. It never exists on disk; the leading dot
	// keeps `./...` patterns from ever matching it.
	pkgDir = ".trestle-eval-compiled"
)

// Options configure a Session.
type Options struct {
	Root      string            // the project root (the folder with go.mod)
	Module    string            // the project's module path (pkgstate.go)
	Tags      []string          // build tags of the selection
	Env       map[string]string // environment of the selection, for the build and the run
	GoCommand string            // "go" when empty
	MaxOutput int               // bytes of output kept; 1 MiB when 0
	// MemoryLimit caps the program's address space in bytes (on Linux,
	// through the supervisor, supervise.go); 0 means none.
	MemoryLimit int64
	// Refuse, when set, is asked about every package a program would
	// import before it is built: a non-empty answer is the input's error
	// and nothing is built, run or kept (an untrusted project's own
	// packages are refused this way).
	Refuse func(importPath string) string
	// Building, when set, hears true when an input's `go build` begins and
	// false when it ends (a cold build of the project's dependencies can
	// take a minute: the caller shows that it is building meanwhile).
	Building func(bool)
	// DependencyDir, when set, is the source folder of a dependency's
	// package ("" when not found), so that package state follows a
	// dependency's own imports (pkgstate.go).
	DependencyDir func(importPath string) string
}

// Result is one compiled evaluation's outcome.
type Result struct {
	Value, Type string
	Output      string // stdout and stderr, interleaved, at most MaxOutput
	Dropped     int64  // output bytes beyond MaxOutput
	Err         string // compile error at the input's line:col, panic, exit, deadline
	Notes       []string
	Build, Run  time.Duration
	// Replaced names the declarations this input redefined.
	Replaced []string
}

// Session is one selection's compiled evaluator: the declarations its
// compiled inputs accumulated and a temporary folder for the program. Run
// calls are serialized; Stop may be called from any goroutine. Safe for
// concurrent use.
type Session struct {
	opts Options
	run  sync.Mutex // held by Run

	mu     sync.Mutex
	set    declSet      // committed declarations and imports
	known  []importDecl // imports the interpreter did (NoteInterpreted)
	inputs int          // compiled inputs committed so far
	gen    int          // bumped by Reset, so that a run begun before it commits nothing
	dir    string       // temporary folder: main.go, overlay.json, the binary
	cancel context.CancelCauseFunc

	facts factsCache // what the interpreter would get wrong in each project package (misread.go)
	// history are the earlier inputs that ran without error, seq numbers
	// them, and owner says which side each state name belongs to (true:
	// compiled); see history.go.
	history []*entry
	seq     int
	owner   map[string]bool
	// ownedPkgs are the packages whose state a compiled input may have
	// changed: the interpreter's copy of them is stale (pkgstate.go).
	ownedPkgs map[string]bool
	// blankTyped says an interpreted input defined _ at its top level
	// (_, err := f()): the interpreter keeps one _ of that type, and a
	// later _ = v of another type panics in it (misreadTopLevel).
	blankTyped bool
	// super is the supervisor binary (supervise.go), superNote why there
	// is none.
	super, superNote string
}

// newMark is a line no program prints by chance: it ends the output of
// the earlier inputs a program runs again.
func newMark() string {
	var b [16]byte
	rand.Read(b[:])
	return "\x1etrestle-replayed-" + hex.EncodeToString(b[:]) + "\x1e"
}

// errStopped is the cause of a Stop.
var errStopped = errors.New("stopped")

// New returns a Session for a project selection. Nothing runs until Run.
func New(opts Options) *Session {
	if opts.GoCommand == "" {
		opts.GoCommand = "go"
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = 1 << 20
	}
	// The overlay names files by absolute path and the go command works
	// from the real folder, so the root is used with symlinks resolved.
	if real, err := filepath.EvalSymlinks(opts.Root); err == nil {
		opts.Root = real
	}
	// Read the standard library's package list (~300 ms, once per process)
	// ahead of the first compiled input; the goroutine ends with `go list`,
	// which is bounded by its own timeout.
	go standardPackages(opts.GoCommand)
	return &Session{opts: opts}
}

// Run evaluates code compiled: it builds the accumulated declarations, the
// input's declarations and a main of its statements, and runs the program
// with deadline (after the build). A problem in the code — a compile error,
// a panic, the deadline, a Stop — is Result.Err; the error is for a failure
// to build or run at all (no go command, no temporary folder).
// Declarations are kept only when the program built.
func (s *Session) Run(ctx context.Context, code string, deadline time.Duration) (Result, error) {
	s.run.Lock()
	defer s.run.Unlock()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	s.mu.Lock()
	s.cancel = cancel
	set, known, n, gen := s.set, s.known, s.inputs, s.gen
	s.mu.Unlock()
	defer s.clearCancel()

	var res Result
	in, err := splitInput(code)
	if err != nil {
		res.Err = err.Error()
		return res, nil
	}
	s.mu.Lock()
	in.replay = s.replayFor(in)
	s.mu.Unlock()
	next := set.with(in)
	res.Replaced = replaced(set, in)
	dir, err := s.tempDir()
	if err != nil {
		return res, err
	}
	start := time.Now()
	known = append(append([]importDecl{}, known...), s.autoImports(next, known, in)...)
	if msg := s.refused(next, known, in); msg != "" {
		res.Err = msg
		return res, nil
	}
	if s.opts.Building != nil {
		s.opts.Building(true)
	}
	bin, problem, err := s.build(ctx, dir, next, known, in)
	if s.opts.Building != nil {
		s.opts.Building(false)
	}
	res.Build = time.Since(start)
	if err != nil || problem != "" {
		res.Err = problem
		if cause := context.Cause(ctx); errors.Is(cause, errStopped) {
			res.Err = "stopped during the build"
		}
		if note := s.declaredOutOfReach(problem); note != "" {
			res.Notes = append(res.Notes, note)
		}
		return res, err
	}
	s.mu.Lock()
	if s.gen == gen {
		s.set, s.inputs = next.committed(earlierFile(n+1)), n+1
	}
	s.mu.Unlock()
	if note := in.replay.note(); note != "" {
		res.Notes = append(res.Notes, note)
	}
	start = time.Now()
	s.execute(ctx, dir, bin, deadline, len(in.replay.entries) > 0, &res)
	res.Run = time.Since(start)
	s.mu.Lock()
	if s.gen == gen && res.Err == "" {
		s.record(code, in, true, res.Type != "")
	}
	s.mu.Unlock()
	return res, nil
}

func (s *Session) clearCancel() {
	s.mu.Lock()
	s.cancel = nil
	s.mu.Unlock()
}

// replaced names the earlier declarations in redefines.
func replaced(set declSet, in *input) []string {
	var out []string
	for _, d := range in.decls {
		for _, k := range d.keys {
			if set.declares(k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// Stop interrupts the running build or program, if any, and reports
// whether there was one.
func (s *Session) Stop() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel == nil {
		return false
	}
	s.cancel(errStopped)
	return true
}

// Reset forgets the accumulated declarations (the evaluator's restart).
func (s *Session) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.set, s.known, s.inputs = declSet{}, nil, 0
	s.history, s.owner, s.ownedPkgs = nil, nil, nil
	s.gen++
	if s.cancel != nil {
		s.cancel(errStopped)
	}
}

// Close stops a run and removes the temporary folder.
func (s *Session) Close() {
	s.Stop()
	s.run.Lock()
	defer s.run.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir != "" {
		os.RemoveAll(s.dir)
		s.dir = ""
	}
}

// Inputs is how many compiled inputs built; their declarations are kept.
func (s *Session) Inputs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inputs
}

func removeLocal(imps []importDecl, local string) []importDecl {
	out := imps[:0:0]
	for _, i := range imps {
		if i.local() != local {
			out = append(out, i)
		}
	}
	return out
}

func (s *Session) tempDir() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir == "" {
		dir, err := os.MkdirTemp("", "trestle-compiled-")
		if err != nil {
			return "", fmt.Errorf("compiled evaluation: %w", err)
		}
		s.dir = dir
	}
	return s.dir, nil
}

// env is the environment of the build and the program.
func (s *Session) env(extra ...string) []string {
	env := os.Environ()
	for k, v := range s.opts.Env {
		env = append(env, k+"="+v)
	}
	return append(env, extra...)
}

// execute runs the built program and fills res. replay says the program
// runs earlier inputs again first: their output, up to the mark the
// program writes after them, is dropped.
func (s *Session) execute(ctx context.Context, dir, bin string, deadline time.Duration, replay bool, res *Result) {
	resultFile := filepath.Join(dir, "result.json")
	os.Remove(resultFile)
	out := &boundedBuffer{max: s.opts.MaxOutput}
	mark := ""
	if replay {
		mark = newMark()
		out.skipTo = []byte(mark)
	}
	sup, note := s.supervisor(ctx, dir)
	if note != "" {
		res.Notes = append(res.Notes, note)
	}
	cmd := s.supervised(sup, bin, deadline)
	cmd.Dir = s.opts.Root
	cmd.Env = s.env(resultEnv+"="+resultFile, markEnv+"="+mark)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 2 * time.Second
	procgroup.Set(cmd)
	if err := cmd.Start(); err != nil {
		res.Err = fmt.Sprintf("start the compiled program: %v", err)
		return
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	var waitErr error
	killed := ""
	select {
	case waitErr = <-done:
	case <-timer.C:
		killed = fmt.Sprintf("the deadline of %s passed; the compiled program was killed (its declarations are kept)", deadline)
	case <-ctx.Done():
		killed = "stopped; the compiled program was killed (its declarations are kept)"
		if !errors.Is(context.Cause(ctx), errStopped) {
			killed = "cancelled; the compiled program was killed"
		}
	}
	if killed != "" && sup != "" {
		// The supervisor kills the program and every descendant, also
		// those that left the process group with setsid, then exits.
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
			done = nil
		case <-time.After(2 * time.Second):
		}
	}
	// The group is killed also after main returned: what the program
	// started does not outlive it, as each run is a fresh process.
	procgroup.Kill(cmd)
	if killed != "" && done != nil {
		<-done
	}
	res.Output, res.Dropped = out.text()
	res.Err = killed
	if killed == "" {
		s.readResult(resultFile, waitErr, res)
	}
}

// readResult reads what the program reported; a program that ended without
// reporting (os.Exit, a crash, a panic on another goroutine) says how it ended.
func (s *Session) readResult(file string, waitErr error, res *Result) {
	raw, err := os.ReadFile(file)
	if err != nil {
		if waitErr != nil {
			res.Err = fmt.Sprintf("the compiled program ended early: %v", waitErr)
		} else {
			res.Notes = append(res.Notes, "the compiled program exited before main returned (os.Exit)")
		}
		return
	}
	var r struct{ Value, Type, Error string }
	if err := json.Unmarshal(raw, &r); err != nil {
		res.Err = fmt.Sprintf("read the compiled program's result: %v", err)
		return
	}
	res.Value, res.Type, res.Err = r.Value, r.Type, r.Error
}

// refused is Options.Refuse's answer for the first package the program
// would import: its own imports, and the interpreter's that it uses.
func (s *Session) refused(set declSet, known []importDecl, in *input) string {
	if s.opts.Refuse == nil {
		return ""
	}
	used := usedQualifiers(set, in)
	imports := append([]importDecl{}, set.imports...)
	for _, k := range known {
		if used[k.local()] {
			imports = append(imports, k)
		}
	}
	for _, i := range imports {
		if msg := s.opts.Refuse(i.path); msg != "" {
			return msg
		}
	}
	return ""
}
