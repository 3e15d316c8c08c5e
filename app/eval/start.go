package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// Starting a selection's worker (native or the interpreter fallback), and
// saying why one is gone.

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
	err = fmt.Errorf("evaluate in selection %q: the evaluator died (%s); its state was lost and the next evaluation starts a fresh one%s: %w", sel, p.exitText(), p.stderrText(), ErrDied)
	if p.stderr.programOverflow() {
		err = programOverflowError{err}
	}
	return err
}

// ensure returns the selection's live worker, starting one if there is none.
func (m *Manager) ensure(ctx context.Context, s *slot) (*process, []string, error) {
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	var notes []string
	var replay []string // the state to carry into the newer worker
	var link []string   // the project packages it linked for its inputs
	if p != nil && !p.exited() {
		newer := m.newerNative(s.name, p)
		if newer == "" {
			return p, nil, nil
		}
		// The newer worker takes over now; the state-defining inputs run
		// again in it, in order, before this input.
		replay = m.retire(s, p)
		notes = append(notes, "switched to the newly built native evaluator")
		link, p = p.link, nil
	}
	if p != nil {
		notes = append(notes, fmt.Sprintf("the previous evaluator had died (%s)%s; started a fresh one", p.exitText(), p.stderrText()))
		m.end(s, p, errGone)
	}
	if len(link) == 0 {
		link = m.preloadLink(ctx, s.name)
	}
	start := m.start
	if len(link) > 0 {
		start = func(ctx context.Context, name string) (*process, []string, error) {
			return m.startLinked(ctx, name, link)
		}
	}
	p, startNotes, err := start(ctx, s.name)
	notes = append(notes, startNotes...)
	if err != nil {
		s.keepLost(replay)
		return nil, notes, fmt.Errorf("evaluate in selection %q: %w", s.name, err)
	}
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		m.closeLater(p)
		return nil, notes, fmt.Errorf("evaluate in selection %q: %w", s.name, ErrClosed)
	}
	notes = append(notes, m.takeOver(ctx, s, p, replay)...)
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
	if err == nil && bin != "" {
		p.skipped = m.skippedBy(name, bin)
	}
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
