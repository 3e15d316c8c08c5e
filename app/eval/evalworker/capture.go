package evalworker

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
)

// MaxOutputBytes caps what one evaluation's output keeps; the rest is
// counted and dropped, so a print loop cannot fill the window's memory.
const MaxOutputBytes = 1 << 20

// maxTraceBytes caps the interpreter's trace lines kept for one
// evaluation (the innermost frames come first).
const maxTraceBytes = 64 << 10

// syncWait bounds how long take waits for the drain to reach its marker.
const syncWait = 5 * time.Second

// capture collects what evaluated code writes to its stdout and stderr. Both
// go to one pipe so that their interleaving is kept; a goroutine drains the
// pipe into a bounded buffer. Between evaluations take writes a random
// marker into the pipe and waits until the drain has read up to it, so each
// evaluation gets exactly its own output. take and close must be called from
// one goroutine (the worker loop); the drain goroutine is owned by capture
// and ends in close.
//
// The interpreter's own writes (its panic trace lines, see interpStderr)
// never enter the pipe: they are told apart by who writes them, not by
// what they look like, so no output of the code's is taken for one.
type capture struct {
	r, w   *os.File
	marker []byte
	synced chan struct{} // one value per marker read
	done   chan struct{} // closed when the drain goroutine returns

	mu      sync.Mutex
	buf     []byte
	dropped int64
	trace   []byte
}

func newCapture() (*capture, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("capture output: %w", err)
	}
	token := make([]byte, 16)
	rand.Read(token)
	c := &capture{
		r: r, w: w,
		marker: []byte("\x00trestle-sync-" + hex.EncodeToString(token) + "\x00"),
		synced: make(chan struct{}, 1),
		done:   make(chan struct{}),
	}
	go c.drain()
	return c, nil
}

// writer is the file evaluated code writes to (its os.Stdout and os.Stderr).
func (c *capture) writer() *os.File { return c.w }

// interpStderr is the writer the interpreter is given as its stderr. yaegi
// writes there a line for each interpreted frame a panic passes through
// ("1:34: panic: main(...)", from its runCfg); the log and flag packages
// of the interpreted code write there too. The trace lines are kept apart
// (take returns them); everything else goes to the pipe, in order with
// the rest of the output. Safe for concurrent use.
func (c *capture) interpStderr() io.Writer { return traceSplitter{c} }

// traceSplitter is interpStderr's writer.
type traceSplitter struct{ c *capture }

func (s traceSplitter) Write(p []byte) (int, error) {
	if !writtenByTrace() {
		return s.c.w.Write(p)
	}
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	s.c.trace = append(s.c.trace, p[:min(len(p), max(maxTraceBytes-len(s.c.trace), 0))]...)
	return len(p), nil
}

// traceWriter is the function of yaegi's that writes a trace line: the
// deferred closure in runCfg, with fmt.Fprintln.
const traceWriter = yaegiPkg + "interp.runCfg.func"

// writtenByTrace reports whether the Write that calls it (through
// traceSplitter.Write) is yaegi's trace line: fmt.Fprintln called by
// runCfg's deferred closure. The code's own writes reach the writer
// through log, flag or fmt called from interpreted code, never from
// runCfg's closure directly.
func writtenByTrace() bool {
	var pcs [4]uintptr
	n := runtime.Callers(2, pcs[:]) // from traceSplitter.Write on
	frames := runtime.CallersFrames(pcs[:n])
	prev := ""
	for {
		f, more := frames.Next()
		if prev == "fmt.Fprintln" {
			return strings.HasPrefix(f.Function, traceWriter)
		}
		if !more {
			return false
		}
		prev = f.Function
	}
}

func (c *capture) drain() {
	defer close(c.done)
	chunk := make([]byte, 32<<10)
	var pending []byte
	for {
		n, err := c.r.Read(chunk)
		pending = c.consume(append(pending, chunk[:n]...))
		if err != nil {
			c.keep(pending)
			return
		}
	}
}

// consume keeps what precedes each marker, signals each marker, and returns
// the tail that might be the start of a marker split across reads.
func (c *capture) consume(p []byte) []byte {
	for {
		i := bytes.Index(p, c.marker)
		if i < 0 {
			break
		}
		c.keep(p[:i])
		p = p[i+len(c.marker):]
		select {
		case c.synced <- struct{}{}:
		default: // a take that gave up waiting left its signal unread
		}
	}
	if safe := len(p) - (len(c.marker) - 1); safe > 0 {
		c.keep(p[:safe])
		p = p[safe:]
	}
	return bytes.Clone(p)
}

func (c *capture) keep(p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := max(MaxOutputBytes-len(c.buf), 0)
	n := min(room, len(p))
	c.buf = append(c.buf, p[:n]...)
	c.dropped += int64(len(p) - n)
}

// take returns the output written since the previous take, how many bytes
// were dropped over the cap, and the interpreter's trace lines written
// since.
func (c *capture) take() (out string, dropped int64, trace string, err error) {
	if _, werr := c.w.Write(c.marker); werr != nil {
		err = fmt.Errorf("capture output: the output pipe was closed by the evaluated code: %w", werr)
	} else {
		err = c.awaitSync()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out, dropped, trace = string(c.buf), c.dropped, string(c.trace)
	c.buf, c.dropped, c.trace = c.buf[:0], 0, c.trace[:0]
	return out, dropped, trace, err
}

func (c *capture) awaitSync() error {
	t := time.NewTimer(syncWait)
	defer t.Stop()
	select {
	case <-c.synced:
		return nil
	case <-c.done:
		return errors.New("capture output: the output pipe closed")
	case <-t.C:
		return fmt.Errorf("capture output: output still arriving after %s", syncWait)
	}
}

// close stops the drain goroutine and releases the pipe.
func (c *capture) close() {
	c.w.Close()
	<-c.done
	c.r.Close()
}
