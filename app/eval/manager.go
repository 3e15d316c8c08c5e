package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"trestle/app/errdefs"
	"trestle/app/projconf"
)

// Deadlines and waits of an evaluation.
const (
	DefaultTimeout      = 10 * time.Second // an evaluation's deadline when the caller gives none
	MaxTimeout          = 60 * time.Second // the longest deadline a caller may ask for
	BusyWait            = 2 * time.Second  // how long Eval waits for a busy selection
	DefaultStartTimeout = 30 * time.Second // how long a worker may take to start and preload
)

// Errors an evaluation can end with, besides errdefs.ErrBusy and errdefs.ErrNotFound.
// Each is wrapped with the selection and what happened.
var (
	ErrDeadline = errors.New("the evaluation deadline passed")
	ErrStopped  = errors.New("the evaluation was stopped")
	ErrDied     = errors.New("the evaluator died")
	ErrClosed   = errors.New("the evaluator manager is closed")
	ErrNoMemory = errors.New("the evaluator ran out of memory")
)

// ManagerOptions configures a Manager.
type ManagerOptions struct {
	Root       string                        // project root
	Module     string                        // the project's module path
	Selections map[string]projconf.Selection // "default" is added when missing
	// WorkerCommand returns the command that starts a worker process for a
	// selection (the trestle binary with --eval-worker). The Manager adds
	// the selection's environment and WorkerOptionsEnv to its Env, sets
	// Dir to Root when empty, and starts it in its own process group.
	WorkerCommand func(selection string) *exec.Cmd
	// StartTimeout bounds a worker's start and preloading; 0 means DefaultStartTimeout.
	StartTimeout time.Duration
	// Native builds each selection a native worker (package workerbuild):
	// the toolchain's standard library and the dependencies linked in.
	// Until one is built, and when its build fails, WorkerCommand's
	// interpreter serves.
	Native bool
	// CacheDir holds native worker builds; "" is workerbuild.DefaultCacheDir().
	CacheDir string
	// BuildWait bounds how long an evaluation waits for a selection's
	// first native build; 0 means not at all (the fallback serves).
	BuildWait time.Duration
	// MemoryLimit is each worker's address-space limit in bytes: 0 means
	// DefaultMemoryLimit(), a negative value none.
	MemoryLimit int64
	// OnBuild, if set, hears every native build event (see Subscribe).
	OnBuild func(BuildEvent)
	// ProjectTrusted, when set, reports whether the person trusts the
	// project (package trust; it can change while the manager runs). An
	// untrusted project's native code does not run (trust.go): no project
	// package is linked into a native worker, none is built by the
	// compiled path; the interpreter still reads project packages from
	// source. Nil trusts the project.
	ProjectTrusted func() bool
}

// Result is the outcome of one evaluation.
type Result struct {
	Selection string
	Value     string        // the last expression's value, "" when the input ends in a statement
	Type      string        // its type
	Output    string        // what the code wrote to stdout and stderr, at most MaxOutputBytes
	Err       string        // compile or runtime error, or "panic: message"
	Notes     []string      // things worth knowing: a fresh worker, output cut, go mod download
	Mode      string        // ModeInterpreted or ModeCompiled (see route.go)
	Duration  time.Duration // wall time of the call, including a worker start
	// Worker says what ran the input: "native go1.26.8" (the standard
	// library and dependencies linked in) or "interpreter" (the fallback);
	// "" for a compiled input (Mode) or when no worker ran.
	Worker string
	// Native lists the packages outside the standard library that the
	// native worker that ran the input links (nil for the interpreter).
	Native []string
	// LeftOut lists what the native worker's build left out (a partial
	// build: a package's table did not compile or link), with why; a
	// note says the same in one line.
	LeftOut []string
	// StateLost is true when the worker was killed or died during the
	// call (deadline, Stop, crash, out of memory, cancellation): its state
	// is gone, and Lost says what Replay would run again.
	StateLost bool
	// Lost lists, when the worker died or was killed, the earlier inputs
	// that defined state (declarations, assignments, imports), in order;
	// Replay runs them in a fresh worker.
	Lost []string
	// trace is the interpreter's panic trace, kept out of Output
	// (evalworker.Response.Trace): where an interpreter failure went.
	trace string
}

// Manager runs one worker process per selection of a project, started on
// first use. It is safe for concurrent use: evaluations on different
// selections run in parallel, and one on a busy selection waits at most
// BusyWait. Close kills every worker.
type Manager struct {
	opts ManagerOptions
	reap sync.WaitGroup // goroutines closing killed processes

	builds sync.WaitGroup // native builds in the background
	swept  sync.Once      // the per-user selection records (record.go)

	mu          sync.Mutex
	slots       map[string]*slot
	natives     map[string]*nativeSlot
	buildCtx    context.Context // cancelled by Close
	buildCancel context.CancelFunc
	subs        map[int]func(BuildEvent)
	subSeq      int
	closed      bool
	tmp         string // holds the GOPATH trees, removed by Close
	seq         int
	modCache    string
	downloaded  bool // `go mod download` ran (or was tried) once

	compiled compiledSessions // compiled evaluation, see route.go
}

// NewManager returns a Manager for a project. No worker starts until the
// first Eval.
func NewManager(opts ManagerOptions) *Manager {
	sels := map[string]projconf.Selection{projconf.DefaultSelection: {}}
	for name, s := range opts.Selections {
		sels[name] = s
	}
	opts.Selections = sels
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	return &Manager{opts: opts, slots: map[string]*slot{}}
}

// Eval evaluates code in the selection's worker ("" means default), starting
// the worker if needed. timeout 0 means DefaultTimeout; it is capped at
// MaxTimeout. An error in the code (compile, runtime, panic) is Result.Err
// with a nil error; the error is for the evaluator itself: errdefs.ErrBusy when
// another evaluation holds the selection past BusyWait or ctx,
// ErrDeadline, ErrStopped, ErrDied, ErrClosed, errdefs.ErrNotFound for an
// unknown selection, errdefs.ErrTooLarge for code over MaxCodeBytes. After
// ErrDeadline, ErrStopped or ErrDied the state is lost and the next call
// starts a fresh worker.
func (m *Manager) Eval(ctx context.Context, selection, code string, timeout time.Duration) (Result, error) {
	start := time.Now()
	s, err := m.slot(selection)
	if err != nil {
		return Result{Selection: selection}, err
	}
	res := Result{Selection: s.name}
	if len(code) > MaxCodeBytes {
		return res, fmt.Errorf("evaluate in selection %q: %d bytes of code is over the %d byte limit: %w", s.name, len(code), MaxCodeBytes, errdefs.ErrTooLarge)
	}
	timeout, res.Notes = clampTimeout(timeout)
	if err := s.acquire(ctx); err != nil {
		return res, err
	}
	defer func() { <-s.turn }()
	// Routing seam (route.go): input the interpreter cannot run is compiled.
	if ok, why := m.wantsCompiled(ctx, s, code, &res); ok {
		return m.goErrors(m.evalCompiled(ctx, s.name, code, timeout, res, start, why))
	}
	res, err = m.evalInterpreted(ctx, s, res, code, timeout)
	if errors.Is(err, ErrDied) {
		if note := m.compileOnCrash(s.name, code, err); note != "" {
			res.Notes = append(res.Notes, note)
		}
	}
	if err == nil && fallBackCompiled(res, m.opts.Module) { // routing seam, second part (route.go)
		res.Notes = append(res.Notes, "the interpreter could not run this: "+res.Err)
		return m.goErrors(m.evalCompiled(ctx, s.name, code, timeout, res, start, "the interpreter lacks what it uses"))
	}
	if err == nil {
		m.noteInterpreted(s.name, code, res)
		s.mu.Lock()
		history := slices.Clone(s.history)
		s.mu.Unlock()
		if note := m.compileUninterpretable(s.name, code, history, res); note != "" {
			res.Notes = append(res.Notes, note)
		}
	}
	res.Duration = time.Since(start)
	return m.goErrors(res, err)
}

// goErrors makes an answer's error read like Go's (goerrors.go).
func (m *Manager) goErrors(res Result, err error) (Result, error) {
	if res.Mode == ModeCompiled {
		res.Err = buildErrorText(res.Err, m.opts.Module)
	} else {
		res.Err = goErrorText(res.Err, m.opts.Module)
	}
	return res, err
}

// evalInterpreted runs code in the selection's worker while holding s.turn.
func (m *Manager) evalInterpreted(ctx context.Context, s *slot, res Result, code string, timeout time.Duration) (Result, error) {
	r, p, gone, notes, err := m.evalHeld(ctx, s, code, timeout)
	res.Notes = append(res.Notes, notes...)
	if p != nil {
		res.Worker = p.workerName()
		if p.bin != "" {
			res.Native = slices.Clone(p.native)
		}
	}
	res.StateLost = gone
	if gone {
		m.forgetInterpreted(s.name)
	}
	if err != nil {
		s.mu.Lock()
		res.Lost = slices.Clone(s.lost)
		s.mu.Unlock()
		if n := len(res.Lost); n > 0 {
			err = fmt.Errorf("%w (%d earlier input(s) had defined state; Replay runs them again)", err, n)
		}
		return res, err
	}
	if r.Defines && r.Error == "" {
		s.mu.Lock()
		if s.proc == p {
			s.history = append(s.history, code)
		}
		s.mu.Unlock()
	}
	res.Value, res.Type, res.Output, res.Err, res.trace = r.Value, r.Type, r.Output, r.Error, r.Trace
	res.Notes = append(res.Notes, r.Notes...)
	if note := m.failedBuildNote(s.name, p); note != "" && !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.HasPrefix(n, note) }) {
		res.Notes = append(res.Notes, note) // every answer of the fallback says so, in one line
	}
	notePartial(&res, p)
	if r.OutputDropped > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("output cut: the first %d bytes are kept, %d more were dropped", MaxOutputBytes, r.OutputDropped))
	}
	res.Mode = ModeInterpreted
	return res, nil
}

// evalHeld runs one evaluation while holding s.turn. gone is true when
// the worker was killed or died during it (end drops it: its state is lost).
func (m *Manager) evalHeld(ctx context.Context, s *slot, code string, timeout time.Duration) (r response, p *process, gone bool, notes []string, err error) {
	if note := m.refreshOnModChange(ctx, s.name, code); note != "" { // modchange.go
		notes = append(notes, note)
	}
	p, more, err := m.ensure(ctx, s)
	notes = append(notes, more...)
	if err != nil {
		return response{}, nil, false, notes, err
	}
	p, more, err = m.ensureLinked(ctx, s, p, code) // link.go
	notes = append(notes, more...)
	if err != nil {
		return response{}, nil, false, notes, err
	}
	s.begin(p)
	r, err = p.eval(ctx, code, timeout)
	if err != nil {
		err = goneError(s.name, p, timeout, err, m.memoryLimit()) // before end, which may close p
	}
	m.end(s, p, err)
	return r, p, err != nil, notes, err
}

func clampTimeout(d time.Duration) (time.Duration, []string) {
	switch {
	case d <= 0:
		return DefaultTimeout, nil
	case d > MaxTimeout:
		return MaxTimeout, []string{fmt.Sprintf("the timeout %s was capped at %s", d, MaxTimeout)}
	}
	return d, nil
}

// Stop interrupts the evaluation running in the selection: its worker is
// killed as by a deadline and the evaluation returns ErrStopped. It returns
// errdefs.ErrNotFound when nothing is running there. It does not wait.
func (m *Manager) Stop(selection string) error {
	s, err := m.slot(selection)
	if err != nil {
		return err
	}
	if m.stopCompiled(s.name) { // routing seam (route.go)
		return nil
	}
	s.mu.Lock()
	p, state := s.proc, s.state
	s.mu.Unlock()
	if p == nil || state != StateRunning {
		return fmt.Errorf("stop the evaluation in selection %q: nothing is running: %w", s.name, errdefs.ErrNotFound)
	}
	p.kill(reasonStopped)
	return nil
}

// Restart kills the selection's worker, if any; the next Eval starts a
// fresh one. An evaluation in progress returns ErrStopped.
func (m *Manager) Restart(selection string) error {
	s, err := m.slot(selection)
	if err != nil {
		return err
	}
	m.resetCompiled(s.name) // routing seam (route.go)
	s.mu.Lock()
	p := s.proc
	s.lose()
	s.proc, s.state, s.evals = nil, StateStopped, 0
	s.mu.Unlock()
	if p != nil {
		p.kill(reasonRestarted)
		m.closeLater(p)
	}
	return nil
}

// Close kills every worker, waits for them to be reaped and removes the
// GOPATH trees. Later calls to Eval return ErrClosed; a second Close does
// nothing more.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	if m.buildCancel != nil {
		m.buildCancel()
	}
	slots := make([]*slot, 0, len(m.slots))
	for _, s := range m.slots {
		slots = append(slots, s)
	}
	m.mu.Unlock()
	for _, s := range slots {
		s.mu.Lock()
		p := s.proc
		s.proc, s.state = nil, StateStopped
		s.mu.Unlock()
		if p != nil {
			p.kill(reasonClosed)
			m.closeLater(p)
		}
	}
	m.closeCompiled() // routing seam (route.go)
	m.reap.Wait()
	m.builds.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tmp != "" {
		os.RemoveAll(m.tmp)
	}
}
