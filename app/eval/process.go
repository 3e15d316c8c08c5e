package eval

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"trestle/app/procgroup"
)

// Why a worker process was killed; the first reason wins.
const (
	reasonDeadline  = "deadline"
	reasonStopped   = "stopped"
	reasonRestarted = "restarted"
	reasonCancelled = "cancelled"
	reasonClosed    = "closed"
)

// Bounds on waiting for a worker process.
const (
	// exitWait bounds the wait for a killed process to be reaped: SIGKILL
	// takes milliseconds, and a caller must never wait much past its deadline.
	exitWait = time.Second
	// drainGrace is how long a dead worker's last lines may take to arrive.
	drainGrace = 100 * time.Millisecond
	// stderrTail is how much of a worker's own stderr is kept for messages.
	stderrTail = 4 << 10
)

// workerNiceness is how far below the window an evaluator runs.
const workerNiceness = 10

// process is one running worker. Its goroutines (the reader and the waiter)
// end when the process has exited and its stdout is closed; kill and close
// make sure both happen. All methods are safe for concurrent use; eval must
// not be called concurrently with itself (Manager serializes it).
type process struct {
	cmd     *exec.Cmd
	stdin   *os.File
	stdout  *os.File
	stderr  *tailWriter
	results chan response // answers, from the reader
	done    chan struct{} // closed when the process has exited
	readEnd chan struct{} // closed when the reader has returned
	gopath  string        // removed by close
	bin     string        // the native worker binary, "" for the fallback
	native  []string      // linked packages outside the standard library (ready message)
	std     string        // the standard library it links (ready message)
	link    []string      // the project's native packages it was built to link (link.go)
	base    string        // with link: the selection's build it was linked on top of
	skipped []string      // what its build left out, with why (partialNotes)

	mu      sync.Mutex
	reason  string // why it was killed, "" if not
	waitErr error  // cmd.Wait's error, set before done closes
	nextID  uint64
}

// startProcess starts cmd as a worker in its own process group and waits
// for its ready line, up to ctx.
func startProcess(ctx context.Context, cmd *exec.Cmd, gopath, bin string) (*process, []string, error) {
	p, err := spawn(cmd, gopath)
	if err != nil {
		return nil, nil, err
	}
	p.bin = bin
	select {
	case r := <-p.results:
		if r.Kind != kindReady {
			p.kill(reasonCancelled)
			p.close()
			return nil, nil, fmt.Errorf("start the evaluator: it answered %q before it was ready", r.Kind)
		}
		p.native, p.std = r.Native, r.Std
		return p, r.Notes, nil
	case <-p.done:
		err := fmt.Errorf("start the evaluator: it exited before it was ready (%s)%s", p.exitText(), p.stderrText())
		p.close()
		return nil, nil, err
	case <-ctx.Done():
		p.kill(reasonCancelled)
		p.close()
		return nil, nil, fmt.Errorf("start the evaluator: %w", ctx.Err())
	}
}

// spawn starts cmd with pipes of our own (os.Pipe, so that no exec copying
// goroutine can hold Wait while a grandchild keeps a pipe open).
func spawn(cmd *exec.Cmd, gopath string) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start the evaluator: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("start the evaluator: %w", err)
	}
	p := &process{
		cmd: cmd, stdin: inW, stdout: outR, stderr: &tailWriter{max: stderrTail},
		results: make(chan response, 4), done: make(chan struct{}), readEnd: make(chan struct{}),
		gopath: gopath,
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, p.stderr
	cmd.WaitDelay = exitWait
	procgroup.Set(cmd)
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("start the evaluator %s: %w", cmd.Path, err)
	}
	// A runaway evaluation must not starve the window of both cores; the
	// worker keeps running, only at a lower priority. Best effort.
	procgroup.Lower(cmd, workerNiceness)
	go p.wait()
	go p.read()
	return p, nil
}

func (p *process) wait() {
	err := p.cmd.Wait()
	p.mu.Lock()
	p.waitErr = err
	p.mu.Unlock()
	close(p.done)
}

// read turns stdout lines into results until the pipe ends. Lines that are
// not protocol messages (something wrote to the real file descriptor 1) are
// dropped.
func (p *process) read() {
	defer close(p.readEnd)
	sc := bufio.NewScanner(p.stdout)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for sc.Scan() {
		var r response
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.Kind == "" {
			continue
		}
		select {
		case p.results <- r:
		default: // nobody asked for it: an answer after a deadline
		}
	}
}

// eval sends one request and waits for its answer, the process's death, the
// timeout or ctx. Past the timeout or on ctx the process group is killed.
func (p *process) eval(ctx context.Context, code string, timeout time.Duration) (response, error) {
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	p.mu.Unlock()
	line, _ := json.Marshal(request{ID: id, Code: code})
	p.stdin.SetWriteDeadline(time.Now().Add(timeout))
	if _, err := p.stdin.Write(append(line, '\n')); err != nil {
		return p.failed(reasonDeadline, fmt.Errorf("send the code to the evaluator: %w: %w", err, errGone))
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case r := <-p.results:
			if r.ID == id {
				return r, nil
			}
		case <-p.done:
			return p.lastWords(id)
		case <-timer.C:
			return p.failed(reasonDeadline, errGone)
		case <-ctx.Done():
			return p.failed(reasonCancelled, fmt.Errorf("%w: %w", ctx.Err(), errGone))
		}
	}
}

// errGone means the worker process ended (or was killed) before it answered.
var errGone = errors.New("the evaluator process is gone")

// failed kills the process for reason and waits for it to be reaped.
func (p *process) failed(reason string, err error) (response, error) {
	p.kill(reason)
	p.awaitExit()
	return response{}, err
}

// lastWords returns the answer to id if it arrived just before the process
// exited, or the error saying the process is gone.
func (p *process) lastWords(id uint64) (response, error) {
	t := time.NewTimer(drainGrace)
	defer t.Stop()
	select {
	case <-p.readEnd:
	case <-t.C:
	}
	for {
		select {
		case r := <-p.results:
			if r.ID == id {
				return r, nil
			}
		default:
			return response{}, errGone
		}
	}
}

// kill records reason (unless one is already set) and kills the whole
// process group. It does not wait.
func (p *process) kill(reason string) {
	p.mu.Lock()
	if p.reason == "" {
		p.reason = reason
	}
	p.mu.Unlock()
	if p.cmd.Process != nil {
		killDescendants(p.cmd.Process.Pid)
	}
	procgroup.Kill(p.cmd)
}

// workerName says what the worker is, for Result.Worker.
func (p *process) workerName() string {
	if p.bin != "" {
		return "native " + p.std
	}
	return "interpreter"
}

// outOfMemory reports whether the worker died of its memory limit: the Go
// runtime says "out of memory" when an allocation hits RLIMIT_AS.
func (p *process) outOfMemory() bool {
	p.stderr.mu.Lock()
	defer p.stderr.mu.Unlock()
	return p.stderr.oom
}

// awaitExit waits, bounded by exitWait, for the process to be reaped.
func (p *process) awaitExit() {
	t := time.NewTimer(exitWait)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
	}
}

// exited reports whether the process has exited.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// killReason returns why the process was killed, or "".
func (p *process) killReason() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reason
}

// exitText is "exit status 3", "signal: killed" or "still running".
func (p *process) exitText() string {
	if !p.exited() {
		return "still running"
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		return ee.ProcessState.String()
	}
	if p.waitErr != nil {
		return p.waitErr.Error()
	}
	return "exit status 0"
}

// stderrText is "; it said: ..." with the tail of the worker's own stderr, or "".
func (p *process) stderrText() string {
	if s := p.stderr.summary(); s != "" {
		return "; it said: " + s
	}
	return ""
}

// close kills what is left of the group, releases the pipes once the reader
// is done (or has had its grace) and removes the GOPATH tree. The process's
// goroutines end here at the latest.
func (p *process) close() {
	if p.cmd.Process != nil && !p.exited() {
		killDescendants(p.cmd.Process.Pid)
	}
	procgroup.Kill(p.cmd) // leftovers of the group; keeps the kill reason as it is
	p.awaitExit()
	p.stdin.Close()
	t := time.NewTimer(drainGrace)
	defer t.Stop()
	select {
	case <-p.readEnd:
	case <-t.C:
	}
	p.stdout.Close()
	if p.gopath != "" {
		os.RemoveAll(p.gopath)
	}
}

// oomMessages are what the Go runtime says when an allocation hits the
// address-space limit (the last is the race detector's version).
var oomMessages = []string{"out of memory", "cannot allocate memory", "too many address space collisions"}

// tailWriter keeps the last max bytes written to it, and whether the
// runtime's "out of memory" went through (it comes before the goroutine
// dump that pushes it out of the tail). Safe for concurrent use.
type tailWriter struct {
	max   int
	mu    sync.Mutex
	buf   []byte
	head  []byte // the first headBytes written: a crash's first lines say what happened
	oom   bool
	carry []byte // the end of the previous write, for a message split across writes
}

// headBytes is how much of the start of a worker's stderr is kept besides
// its tail: a Go crash prints "fatal error: ..." or "panic: ..." first and
// then a goroutine dump that can be far longer than the tail; 8 KiB holds
// the first frames of the goroutine that crashed (programOverflow).
const headBytes = 8 << 10

func (w *tailWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	joined := append(w.carry, b...)
	for _, m := range oomMessages {
		w.oom = w.oom || bytes.Contains(joined, []byte(m))
	}
	w.carry = append(w.carry[:0], joined[max(len(joined)-32, 0):]...)
	if n := headBytes - len(w.head); n > 0 {
		w.head = append(w.head, b[:min(n, len(b))]...)
	}
	w.buf = append(w.buf, b...)
	if over := len(w.buf) - w.max; over > 0 {
		w.buf = append(w.buf[:0], w.buf[over:]...)
	}
	return len(b), nil
}

func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}

// crashLines matches the lines with which the Go runtime says why a
// program died.
var crashLines = regexp.MustCompile(`(?m)^(fatal error|panic|runtime): .*$`)

// repanicked is what Go adds to a panic's line when a deferred call
// recovered it and panicked again with it: the interpreter does that at
// each interpreted frame a panic passes through (to print its trace line),
// so a goroutine's panic in interpreted code would say it where go run of
// the same code does not.
var repanicked = regexp.MustCompile(` \[recovered(, repanicked)?\]$`)

// summary is what the worker said, for a message: the runtime's crash
// lines when its stderr starts with a crash (the goroutine dump after them
// says little to a person), else the tail.
func (w *tailWriter) summary() string {
	w.mu.Lock()
	head, tail := string(w.head), string(w.buf)
	w.mu.Unlock()
	if lines := crashLines.FindAllString(head, 3); len(lines) > 0 {
		for i, l := range lines {
			lines[i] = repanicked.ReplaceAllString(l, "")
		}
		return strings.Join(lines, "; ")
	}
	return strings.TrimSpace(tail)
}
