package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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

// State is a selection's worker state.
type State string

// Worker states.
const (
	StateIdle    State = "idle"    // a worker is up and waiting
	StateRunning State = "running" // a worker is evaluating
	StateStopped State = "stopped" // no worker: never started, stopped, restarted or past a deadline
	StateDead    State = "dead"    // the worker exited by itself (os.Exit, crash)
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
	// library and dependencies linked in) or "interpreter" (the fallback).
	Worker string
	// Lost lists, when the worker died or was killed, the earlier inputs
	// that defined state (declarations, assignments, imports), in order;
	// Replay runs them in a fresh worker.
	Lost []string
}

// WorkerStatus describes one selection's worker.
type WorkerStatus struct {
	Selection   string `json:"selection"`
	State       State  `json:"state"`
	PID         int    `json:"pid"`         // 0 without a worker
	Evaluations int    `json:"evaluations"` // answered by the current worker
}

// Manager runs one worker process per selection of a project, started on
// first use. It is safe for concurrent use: evaluations on different
// selections run in parallel, and one on a busy selection waits at most
// BusyWait. Close kills every worker.
type Manager struct {
	opts ManagerOptions
	reap sync.WaitGroup // goroutines closing killed processes

	builds sync.WaitGroup // native builds in the background

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

// slot is one selection's worker. turn is held by the evaluation in progress.
type slot struct {
	name string
	turn chan struct{}

	mu      sync.Mutex
	proc    *process
	state   State
	evals   int
	since   time.Time // start of the running evaluation
	history []string  // inputs of the current worker that defined state
	lost    []string  // inputs that defined state in workers that are gone, not replayed
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
	if ok, why := m.wantsCompiled(s.name, code); ok {
		return m.evalCompiled(ctx, s.name, code, timeout, res, start, why)
	}
	res, err = m.evalInterpreted(ctx, s, res, code, timeout)
	if err == nil && fallBackCompiled(res) { // routing seam, second part (route.go)
		res.Notes = append(res.Notes, "the interpreter could not run this: "+res.Err)
		return m.evalCompiled(ctx, s.name, code, timeout, res, start, "the interpreter lacks what it uses")
	}
	if err == nil {
		m.noteInterpreted(s.name, code, res)
	}
	res.Duration = time.Since(start)
	return res, err
}

// evalInterpreted runs code in the selection's worker while holding s.turn.
func (m *Manager) evalInterpreted(ctx context.Context, s *slot, res Result, code string, timeout time.Duration) (Result, error) {
	r, p, notes, err := m.evalHeld(ctx, s, code, timeout)
	res.Notes = append(res.Notes, notes...)
	if p != nil {
		res.Worker = p.workerName()
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
	res.Value, res.Type, res.Output, res.Err = r.Value, r.Type, r.Output, r.Error
	res.Notes = append(res.Notes, r.Notes...)
	if r.OutputDropped > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("output cut: the first %d bytes are kept, %d more were dropped", MaxOutputBytes, r.OutputDropped))
	}
	res.Mode = ModeInterpreted
	return res, nil
}

// Replay evaluates, in order, the inputs that defined state in the
// selection's workers that died or were killed (Result.Lost), so that a
// fresh worker has that state again. It stops at the first input that
// fails; the inputs not replayed stay for a later Replay. timeout is per
// input, as for Eval.
func (m *Manager) Replay(ctx context.Context, selection string, timeout time.Duration) ([]Result, error) {
	s, err := m.slot(selection)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	inputs := s.lost
	s.lost = nil
	s.mu.Unlock()
	var out []Result
	for i, code := range inputs {
		res, err := m.Eval(ctx, selection, code, timeout)
		out = append(out, res)
		if err != nil || res.Err != "" {
			s.mu.Lock()
			s.lost = append(slices.Clone(inputs[i+1:]), s.lost...)
			s.mu.Unlock()
			if err == nil {
				err = fmt.Errorf("replay in selection %q: input %d of %d failed: %s", s.name, i+1, len(inputs), res.Err)
			}
			return out, err
		}
	}
	return out, nil
}

// evalHeld runs one evaluation while holding s.turn.
func (m *Manager) evalHeld(ctx context.Context, s *slot, code string, timeout time.Duration) (response, *process, []string, error) {
	p, notes, err := m.ensure(ctx, s)
	if err != nil {
		return response{}, nil, notes, err
	}
	s.begin(p)
	r, err := p.eval(ctx, code, timeout)
	if err != nil {
		err = goneError(s.name, p, timeout, err, m.memoryLimit()) // before end, which may close p
	}
	m.end(s, p, err)
	return r, p, notes, err
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

// slot returns the selection's slot, creating it on first use.
func (m *Manager) slot(selection string) (*slot, error) {
	name := selection
	if name == "" {
		name = projconf.DefaultSelection
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, fmt.Errorf("evaluate in selection %q: %w", name, ErrClosed)
	}
	if _, ok := m.opts.Selections[name]; !ok {
		return nil, fmt.Errorf("evaluate: no selection %q (have %v): %w", name, m.selectionNames(), errdefs.ErrNotFound)
	}
	s := m.slots[name]
	if s == nil {
		s = &slot{name: name, turn: make(chan struct{}, 1), state: StateStopped}
		m.slots[name] = s
	}
	return s, nil
}

// SetSelections replaces the configured selections, e.g. after
// .trestle.json changed ("default" is kept). A worker already running keeps
// the selection it started with until it is restarted; a selection that is
// gone can no longer be evaluated in. Safe for concurrent use.
func (m *Manager) SetSelections(sels map[string]projconf.Selection) {
	next := map[string]projconf.Selection{projconf.DefaultSelection: {}}
	for name, s := range sels {
		next[name] = s
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.opts.Selections = next
}

// selectionNames lists the configured selections, default first. m.mu is held.
func (m *Manager) selectionNames() []string {
	names := make([]string, 0, len(m.opts.Selections))
	for name := range m.opts.Selections {
		if name != projconf.DefaultSelection {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return append([]string{projconf.DefaultSelection}, names...)
}

// acquire takes the selection's turn, waiting at most BusyWait or ctx.
func (s *slot) acquire(ctx context.Context) error {
	select {
	case s.turn <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(BusyWait)
	defer t.Stop()
	select {
	case s.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
	case <-t.C:
	}
	s.mu.Lock()
	since := time.Since(s.since).Round(time.Millisecond)
	s.mu.Unlock()
	return fmt.Errorf("evaluate in selection %q: another evaluation has been running for %s: %w", s.name, since, errdefs.ErrBusy)
}

func (s *slot) begin(p *process) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == p {
		s.state, s.since = StateRunning, time.Now()
	}
}

// end records an evaluation's outcome; a worker that is gone is dropped
// and closed in the background.
func (m *Manager) end(s *slot, p *process, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc != p { // restarted or closed meanwhile: they closed it
		return
	}
	if err == nil {
		s.state = StateIdle
		s.evals++
		return
	}
	s.lose()
	s.proc, s.state = nil, StateStopped
	if p.killReason() == "" {
		s.state = StateDead
	}
	m.closeLater(p)
}

// closeLater closes p on a goroutine that Close waits for; once Close has
// begun it closes p at once, so that no Add races with Close's Wait.
func (m *Manager) closeLater(p *process) {
	m.mu.Lock()
	closed := m.closed
	if !closed {
		m.reap.Add(1)
	}
	m.mu.Unlock()
	if closed {
		p.close()
		return
	}
	go func() {
		defer m.reap.Done()
		p.close()
	}()
}

// lose moves the current worker's state-defining inputs to lost. s.mu is held.
func (s *slot) lose() {
	s.lost = append(s.lost, s.history...)
	s.history = nil
}

// goneError explains why a worker did not answer.
func goneError(sel string, p *process, timeout time.Duration, err error, memLimit int64) error {
	const lost = "the evaluator was killed and its state was lost; the next evaluation starts a fresh one (Replay runs the inputs that defined state again)"
	switch p.killReason() {
	case reasonDeadline:
		return fmt.Errorf("evaluate in selection %q: the deadline of %s passed; %s: %w", sel, timeout, lost, ErrDeadline)
	case reasonStopped:
		return fmt.Errorf("evaluate in selection %q: stopped; %s: %w", sel, lost, ErrStopped)
	case reasonRestarted:
		return fmt.Errorf("evaluate in selection %q: the evaluator was restarted during the evaluation; its state was lost: %w", sel, ErrStopped)
	case reasonCancelled:
		return fmt.Errorf("evaluate in selection %q: cancelled; %s: %w", sel, lost, err)
	case reasonClosed:
		return fmt.Errorf("evaluate in selection %q: %w", sel, ErrClosed)
	}
	if p.outOfMemory() {
		return fmt.Errorf("evaluate in selection %q: out of memory: the evaluation used more than the evaluator's limit of %d MiB and the evaluator died; its state was lost and the next evaluation starts a fresh one (Replay runs the inputs that defined state again): %w", sel, memLimit>>20, ErrNoMemory)
	}
	return fmt.Errorf("evaluate in selection %q: the evaluator died (%s); its state was lost and the next evaluation starts a fresh one%s: %w", sel, p.exitText(), p.stderrText(), ErrDied)
}

// ensure returns the selection's live worker, starting one if there is none.
func (m *Manager) ensure(ctx context.Context, s *slot) (*process, []string, error) {
	s.mu.Lock()
	p := s.proc
	fresh := len(s.history) == 0
	s.mu.Unlock()
	var notes []string
	if p != nil && !p.exited() {
		newer := m.newerNative(s.name, p)
		if newer == "" {
			return p, nil, nil
		}
		if !fresh {
			if p.notedNewer == newer { // said once per worker
				return p, nil, nil
			}
			p.notedNewer = newer
			return p, []string{"a newly built native evaluator is ready; it takes over when this one restarts (restart the evaluator, then Replay to redefine your state)"}, nil
		}
		s.mu.Lock()
		if s.proc == p {
			s.proc, s.state = nil, StateStopped
		}
		s.mu.Unlock()
		p.kill(reasonRestarted)
		m.closeLater(p)
		notes = append(notes, "switched to the newly built native evaluator")
		p = nil
	}
	if p != nil {
		notes = append(notes, fmt.Sprintf("the previous evaluator had died (%s)%s; started a fresh one", p.exitText(), p.stderrText()))
		m.end(s, p, errGone)
	}
	p, startNotes, err := m.start(ctx, s.name)
	notes = append(notes, startNotes...)
	if err != nil {
		return nil, notes, fmt.Errorf("evaluate in selection %q: %w", s.name, err)
	}
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		m.closeLater(p)
		return nil, notes, fmt.Errorf("evaluate in selection %q: %w", s.name, ErrClosed)
	}
	s.mu.Lock()
	s.proc, s.state, s.evals, s.history = p, StateIdle, 0, nil
	s.mu.Unlock()
	return p, append(notes, "started a fresh evaluator ("+p.workerName()+")"), nil
}

// start builds a GOPATH tree and starts a worker for the selection.
func (m *Manager) start(ctx context.Context, name string) (*process, []string, error) {
	if m.opts.WorkerCommand == nil && !m.opts.Native {
		return nil, nil, errors.New("start the evaluator: no WorkerCommand configured")
	}
	bin, notes := m.nativeBinary(ctx, name)
	p, more, err := m.startWorker(ctx, name, bin)
	notes = append(notes, more...)
	if err != nil && bin != "" && m.opts.WorkerCommand != nil {
		// A native worker that does not start (a build gone bad) must not
		// keep the selection from evaluating: forget it, use the fallback.
		m.dropNative(name, bin)
		notes = append(notes, fmt.Sprintf("the native evaluator did not start (%v); this evaluator interprets the dependencies", err))
		p, more, err = m.startWorker(ctx, name, "")
		notes = append(notes, more...)
	}
	return p, notes, err
}

// startWorker builds a GOPATH tree and starts the worker bin, or the
// fallback when bin is "".
func (m *Manager) startWorker(ctx context.Context, name, bin string) (*process, []string, error) {
	opts, notes, err := m.workerOptions(ctx, name)
	if err != nil {
		return nil, notes, err
	}
	cmd, err := m.command(name, bin, opts)
	if err != nil {
		os.RemoveAll(opts.GoPath)
		return nil, notes, err
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.StartTimeout)
	defer cancel()
	p, ready, err := startProcess(ctx, cmd, opts.GoPath, bin)
	if err != nil {
		os.RemoveAll(opts.GoPath)
	}
	return p, append(notes, ready...), err
}

// workerOptions prepares a fresh GOPATH tree and the options for a worker.
func (m *Manager) workerOptions(ctx context.Context, name string) (WorkerOptions, []string, error) {
	dir, modCache, download, err := m.prepare(ctx)
	if err != nil {
		return WorkerOptions{}, nil, err
	}
	notes, err := buildGoPath(ctx, dir, m.opts.Root, modCache, download)
	if err != nil {
		os.RemoveAll(dir)
		return WorkerOptions{}, notes, err
	}
	m.mu.Lock()
	sel := m.opts.Selections[name]
	m.mu.Unlock()
	return WorkerOptions{
		Root: m.opts.Root, Module: m.opts.Module, Selection: name,
		Tags: sel.Tags, Env: sel.Env, Preload: sel.Preload,
		GoPath: dir, ModCache: modCache, MemoryLimit: m.memoryLimit(),
	}, notes, nil
}

// prepare returns a new folder for a GOPATH tree, the module cache, and
// whether `go mod download` may still be tried.
func (m *Manager) prepare(ctx context.Context) (dir, modCache string, download bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tmp == "" {
		removeDeadTrees(os.TempDir())
		if m.tmp, err = os.MkdirTemp("", tempPrefix()); err != nil {
			return "", "", false, fmt.Errorf("start the evaluator: %w", err)
		}
	}
	if m.modCache == "" {
		if m.modCache, err = goModCache(ctx); err != nil {
			return "", "", false, fmt.Errorf("start the evaluator: %w", err)
		}
	}
	m.seq++
	download, m.downloaded = !m.downloaded, true
	return filepath.Join(m.tmp, "gopath-"+strconv.Itoa(m.seq)), m.modCache, download, nil
}

// command is the native worker bin, or else the caller's worker command,
// completed with the options.
func (m *Manager) command(name, bin string, opts WorkerOptions) (*exec.Cmd, error) {
	var cmd *exec.Cmd
	if bin != "" {
		cmd = exec.Command(bin)
	} else if m.opts.WorkerCommand != nil {
		cmd = m.opts.WorkerCommand(name)
	}
	if cmd == nil {
		return nil, fmt.Errorf("start the evaluator for %q: WorkerCommand returned nil", name)
	}
	raw, err := json.Marshal(opts)
	if err != nil {
		return nil, fmt.Errorf("start the evaluator: %w", err)
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	for k, v := range opts.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Env = append(cmd.Env, WorkerOptionsEnv+"="+string(raw))
	if cmd.Dir == "" {
		cmd.Dir = m.opts.Root
	}
	return cmd, nil
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

// Status describes every configured selection's worker, default first.
func (m *Manager) Status() []WorkerStatus {
	m.mu.Lock()
	names := m.selectionNames()
	slots := make([]*slot, len(names))
	for i, name := range names {
		slots[i] = m.slots[name]
	}
	m.mu.Unlock()
	out := make([]WorkerStatus, len(names))
	for i, name := range names {
		out[i] = WorkerStatus{Selection: name, State: StateStopped}
		if slots[i] != nil {
			out[i] = slots[i].status()
		}
	}
	return out
}

func (s *slot) status() WorkerStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := WorkerStatus{Selection: s.name, State: s.state, Evaluations: s.evals}
	if s.proc != nil {
		st.PID = s.proc.cmd.Process.Pid
		if s.state == StateIdle && s.proc.exited() {
			st.State = StateDead
		}
	}
	return st
}

// Close kills every worker, waits for them to be reaped and removes the
// GOPATH trees. Later calls to Eval return ErrClosed.
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
