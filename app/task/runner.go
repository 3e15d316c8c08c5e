package task

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"trestle/app/errdefs"
	"trestle/app/procgroup"
	"trestle/app/projconf"
)

// keepRuns is how many ended runs Get can still find.
const keepRuns = 20

// stopWait bounds Runner.Stop's wait: the SIGKILL grace plus the pipe grace.
const stopWait = killGrace + pipeGrace + time.Second

// Runner runs one project's tasks, one at a time. It is safe for concurrent use.
type Runner struct {
	root string

	mu    sync.Mutex
	seq   int
	runs  []*Run // the last keepRuns runs, oldest first
	alive *Run   // the run in progress, or nil
}

// NewRunner returns a Runner for the project at root.
func NewRunner(root string) *Runner { return &Runner{root: root} }

// Start starts t with args added to its command as Argv says, in its folder, with the
// selection's environment (and its tags as GOFLAGS=-tags=a,b), in a new
// process group. onLine, if not nil, is called for each output line in
// order, from the run's reader goroutine: it must return quickly. When ctx
// is done the run is stopped as by Stop; pass a context that lives as long
// as the run should. A second Start while a run is in progress returns an
// error wrapping errdefs.ErrBusy that names the running task; a task that
// needs the project's trust is refused (CheckTrust).
func (rn *Runner) Start(ctx context.Context, t projconf.Task, args []string, sel projconf.Selection, onLine func(Line)) (*Run, error) {
	if len(t.Command) == 0 {
		return nil, fmt.Errorf("run task %q: it has no command: %w", t.Name, errdefs.ErrInvalid)
	}
	if err := CheckTrust(t, args); err != nil {
		return nil, err
	}
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if cur := rn.alive; cur != nil && cur.State() == StateRunning {
		return nil, fmt.Errorf("run task %q: task %q is running (%s, for %s): %w", t.Name, cur.Task.Name, cur.ID, cur.Duration().Round(time.Millisecond), errdefs.ErrBusy)
	}
	root, dir, err := taskDir(rn.root, t.Dir)
	if err != nil {
		return nil, fmt.Errorf("run task %q: %w", t.Name, err)
	}
	rn.seq++
	run, out, err := startRun("run-"+strconv.Itoa(rn.seq), t, args, sel, root, dir)
	if err != nil {
		return nil, err
	}
	rn.alive = run
	rn.runs = append(rn.runs, run)
	if len(rn.runs) > keepRuns {
		rn.runs = rn.runs[1:]
	}
	go run.supervise(ctx, out, onLine)
	return run, nil
}

// startRun starts the command with stdout and stderr on one pipe of ours.
func startRun(id string, t projconf.Task, args []string, sel projconf.Selection, root, dir string) (*Run, *os.File, error) {
	cmd, out, err := startProcess(Argv(t, args), taskEnv(os.Environ(), sel), dir)
	if err != nil {
		return nil, nil, fmt.Errorf("run task %q: %w", t.Name, err)
	}
	run := &Run{
		ID: id, Task: t, Args: args, Started: time.Now(),
		root: root, cmd: cmd, done: make(chan struct{}), state: StateRunning, exitCode: -1,
		module: moduleOf(root),
	}
	return run, out, nil
}

// startProcess starts argv in dir with env, in a new process group, with
// stdout and stderr on one pipe whose reading end it returns.
func startProcess(argv, env []string, dir string) (*exec.Cmd, *os.File, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	procgroup.Set(cmd)
	out, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	cmd.Stdout, cmd.Stderr = w, w
	err = cmd.Start()
	w.Close()
	if err != nil {
		out.Close()
		return nil, nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	return cmd, out, nil
}

// taskEnv is base with the selection's environment and tags.
func taskEnv(base []string, sel projconf.Selection) []string {
	env := append([]string(nil), base...)
	for k, v := range sel.Env {
		env = append(env, k+"="+v)
	}
	if len(sel.Tags) == 0 {
		return env
	}
	goflags := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			goflags = v
		}
	}
	return append(env, "GOFLAGS="+strings.TrimSpace(goflags+" -tags="+strings.Join(sel.Tags, ",")))
}

// taskDir resolves the task folder (relative to root) and checks, after
// following symlinks, that it is inside the project.
func taskDir(root, rel string) (realRoot, dir string, err error) {
	realRoot, err = filepath.EvalSymlinks(root)
	if err != nil {
		return "", "", fmt.Errorf("project root %s: %w", root, err)
	}
	dir, err = filepath.EvalSymlinks(filepath.Join(realRoot, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", fmt.Errorf("task folder %q does not exist: %w", rel, errdefs.ErrNotFound)
	}
	if err != nil {
		return "", "", fmt.Errorf("task folder %q: %w", rel, err)
	}
	if r, err := filepath.Rel(realRoot, dir); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", "", fmt.Errorf("task folder %q: %w", rel, errdefs.ErrOutside)
	}
	return realRoot, dir, nil
}

// Get returns a recent run by ID.
func (rn *Runner) Get(id string) (*Run, bool) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	for _, r := range rn.runs {
		if r.ID == id {
			return r, true
		}
	}
	return nil, false
}

// Current returns the run in progress, or nil.
func (rn *Runner) Current() *Run {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.alive != nil && rn.alive.State() == StateRunning {
		return rn.alive
	}
	return nil
}

// Last returns the most recent run, in progress or ended, or nil.
func (rn *Runner) Last() *Run {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if len(rn.runs) == 0 {
		return nil
	}
	return rn.runs[len(rn.runs)-1]
}

// LastWhere returns the most recent run for which keep is true, or nil.
func (rn *Runner) LastWhere(keep func(*Run) bool) *Run {
	rn.mu.Lock()
	runs := slices.Clone(rn.runs)
	rn.mu.Unlock()
	for i := len(runs) - 1; i >= 0; i-- {
		if keep(runs[i]) {
			return runs[i]
		}
	}
	return nil
}

// Stop stops the run in progress (SIGTERM to its group, SIGKILL after 2 s)
// and waits for it to end, at most a few seconds. It returns an error
// wrapping errdefs.ErrNotFound when nothing is running.
func (rn *Runner) Stop() error {
	run := rn.Current()
	if run == nil {
		return fmt.Errorf("stop the run: nothing is running: %w", errdefs.ErrNotFound)
	}
	run.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), stopWait)
	defer cancel()
	if err := run.Wait(ctx); err != nil {
		return fmt.Errorf("stop %s (%s): it has not ended after %s: %w", run.ID, run.Task.Name, stopWait, errdefs.ErrBusy)
	}
	return nil
}
