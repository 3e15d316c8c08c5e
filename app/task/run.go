package task

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"trestle/app/procgroup"
	"trestle/app/projconf"
)

// Limits of a run.
const (
	MaxLines     = 5000                   // output lines a run keeps; older ones are dropped and counted
	MaxLineBytes = 64 << 10               // a longer line is cut
	maxProblems  = 1000                   // problems a run keeps
	killGrace    = 2 * time.Second        // from SIGTERM to SIGKILL
	pipeGrace    = 2 * time.Second        // how long leftovers may hold the output pipe after the leader exits
	finalGrace   = 500 * time.Millisecond // after the final SIGKILL, before the pipe is closed under them
)

// State is a run's state.
type State string

// Run states.
const (
	StateRunning  State = "running"
	StatePassed   State = "passed"
	StateFailed   State = "failed"
	StateStopped  State = "stopped"
	StateTimedOut State = "timed out"
)

// Line is one output line of a run (stdout and stderr share one pipe, so
// their order is the order the task wrote them).
type Line struct {
	Run  string // the run's ID
	N    int    // 1-based line number over the whole run
	Text string
}

// Run is one started task. Its exported fields do not change; the methods
// are safe for concurrent use.
type Run struct {
	ID      string
	Task    projconf.Task
	Args    []string
	Started time.Time

	root string
	cmd  *exec.Cmd // the process running now; supervise replaces it on a retry, under mu
	done chan struct{}

	mu       sync.Mutex
	state    State
	reason   State // StateStopped or StateTimedOut once asked to end
	exitCode int
	duration time.Duration
	lines    []string // ring of the last MaxLines lines
	head     int      // index of the oldest line once the ring is full
	total    int
	problems []Problem
	module   string      // the project's module path, to place test problems
	tests    testOutput  // what tests print, until their verdicts
	logs     logCalls    // which test lines are t.Log calls
	panicMsg string      // the panic whose trace is coming, until its first frame in the project
	kill     *time.Timer // SIGKILL after a SIGTERM
	noVCS    bool        // ran again with -buildvcs=false (retryWithoutVCS)
}

// Command is the command line the run executes (see Argv).
func (r *Run) Command() []string { return Argv(r.Task, r.Args) }

// State returns the run's state.
func (r *Run) State() State {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state
}

// ExitCode returns the exit code once the run has ended; -1 while it runs or
// when it was ended by a signal.
func (r *Run) ExitCode() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.exitCode
}

// Duration returns how long the run took, or has taken so far.
func (r *Run) Duration() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state == StateRunning {
		return time.Since(r.Started)
	}
	return r.duration
}

// Done is closed when the run has ended and its output is complete.
func (r *Run) Done() <-chan struct{} { return r.done }

// Wait waits for the run to end, or for ctx.
func (r *Run) Wait(ctx context.Context) error {
	select {
	case <-r.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Output returns the last tail kept lines (0: all kept lines) joined by
// newlines, and how many lines were dropped from the front of the buffer.
func (r *Run) Output(tail int) (string, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	lines := append(append([]string(nil), r.lines[r.head:]...), r.lines[:r.head]...)
	if tail > 0 && tail < len(lines) {
		lines = lines[len(lines)-tail:]
	}
	return strings.Join(lines, "\n"), r.total - len(r.lines)
}

// Problems returns the problems found in the output so far.
func (r *Run) Problems() []Problem {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Problem(nil), r.problems...)
}

// Stop ends the run: SIGTERM to its process group, SIGKILL after 2 s. It
// does not wait; see Wait. Stopping an ended run does nothing.
func (r *Run) Stop() { r.end(StateStopped) }

// end asks the run's process group to end for reason.
func (r *Run) end(reason State) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state != StateRunning || r.reason != "" {
		return
	}
	r.reason = reason
	procgroup.Terminate(r.cmd)
	r.kill = time.AfterFunc(killGrace, func() { procgroup.Kill(r.cmd) })
}

// supervise owns the run's goroutines: the reader and the waiter. It ends
// the run on timeout or ctx, and returns after both are done. A go
// command stopped by a broken .git runs once more (retryWithoutVCS).
func (r *Run) supervise(ctx context.Context, out *os.File, onLine func(Line)) {
	for {
		err := r.attempt(ctx, out, onLine)
		if out = r.retryWithoutVCS(err, onLine); out == nil {
			r.finish(err)
			return
		}
	}
}

// attempt reads the output of r.cmd, whose pipe is out, until it ends,
// and returns what its Wait returned.
func (r *Run) attempt(ctx context.Context, out *os.File, onLine func(Line)) error {
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		r.read(out, onLine)
	}()
	waitDone := make(chan error, 1)
	go func() { waitDone <- r.cmd.Wait() }()
	err := r.awaitLeader(ctx, waitDone)
	r.awaitOutput(readDone, out)
	return err
}

// awaitLeader waits for the leader process to exit, ending the run on
// timeout or when ctx is done.
func (r *Run) awaitLeader(ctx context.Context, waitDone <-chan error) error {
	var timeout <-chan time.Time
	if r.Task.Timeout > 0 {
		t := time.NewTimer(r.Task.Timeout - time.Since(r.Started))
		defer t.Stop()
		timeout = t.C
	}
	cancelled := ctx.Done()
	for {
		select {
		case err := <-waitDone:
			return err
		case <-timeout:
			r.end(StateTimedOut)
			timeout = nil
		case <-cancelled:
			r.end(StateStopped)
			cancelled = nil
		}
	}
}

// awaitOutput lets the reader finish. Leftover processes of the group that
// still hold the pipe after pipeGrace are killed; the pipe is then closed.
func (r *Run) awaitOutput(readDone <-chan struct{}, out *os.File) {
	defer out.Close()
	defer procgroup.Kill(r.cmd) // nothing of the run outlives it
	t := time.NewTimer(pipeGrace)
	defer t.Stop()
	select {
	case <-readDone:
		return
	case <-t.C:
	}
	procgroup.Kill(r.cmd)
	t.Reset(finalGrace)
	select {
	case <-readDone:
	case <-t.C:
	}
}

// finish records the outcome and releases waiters.
func (r *Run) finish(waitErr error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.kill != nil {
		r.kill.Stop()
	}
	r.duration = time.Since(r.Started)
	r.exitCode = -1
	if r.cmd.ProcessState != nil {
		r.exitCode = r.cmd.ProcessState.ExitCode()
	}
	r.flushTestProblems()
	switch {
	case r.reason != "":
		r.state = r.reason
	case waitErr == nil:
		r.state = StatePassed
	default:
		r.state = StateFailed
	}
	close(r.done)
}

// read splits the output into lines until the pipe ends.
func (r *Run) read(out io.Reader, onLine func(Line)) {
	br := bufio.NewReaderSize(out, 64<<10)
	var cur []byte
	for {
		chunk, isPrefix, err := br.ReadLine()
		if len(cur) < MaxLineBytes {
			cur = append(cur, chunk[:min(len(chunk), MaxLineBytes-len(cur))]...)
		}
		if err != nil {
			if len(cur) > 0 {
				r.emit(string(cur), onLine)
			}
			return
		}
		if !isPrefix {
			r.emit(strings.TrimSuffix(string(cur), "\r"), onLine)
			cur = cur[:0]
		}
	}
}

// emit keeps a line, parses it for a problem and hands it to onLine.
func (r *Run) emit(text string, onLine func(Line)) {
	r.mu.Lock()
	r.total++
	line := Line{Run: r.ID, N: r.total, Text: text}
	if len(r.lines) < MaxLines {
		r.lines = append(r.lines, text)
	} else {
		r.lines[r.head] = text
		r.head = (r.head + 1) % MaxLines
	}
	r.problemsOf(text)
	r.mu.Unlock()
	if onLine != nil {
		onLine(line)
	}
}
