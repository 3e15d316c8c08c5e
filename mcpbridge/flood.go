package mcpbridge

import (
	"bytes"
	"net"
	"slices"
	"sync/atomic"
	"time"

	"trestle/registry"
)

// A paced flood of silent connections kept every handshake slot taken: each
// slot a connection's handshake bound freed was refilled by the next one at
// once, and a real client, refused as busy, retried in vain. A slow-byte
// flood (a byte of a first line every 20 ms) did the same with connections
// that had "spoken". A real client sends each handshake line in one write
// as soon as it can (the bridge's hello at once, its token line as soon as
// the proof is read), so when every slot is taken the oldest connection
// that has not finished a line for stallAge gives way to the new one,
// whether it sent nothing or a trickle.

const (
	// stallAge is how long a connection may hold a handshake slot without
	// finishing a line (since it connected, or since its last line) before
	// a new connection may take its slot: a real client's lines arrive
	// well within it, even on a loaded machine.
	stallAge = 250 * time.Millisecond
	// evictWait bounds how long the accept loop waits for an evicted
	// connection to give back its slot.
	evictWait = time.Second
)

// evictedLine is what a connection that gave way is told: busy, which a
// bridge retries.
var evictedLine = withNewline(errorLine(nil, registry.CodeBusy,
	"refused: this window is flooded with connections that do not finish their handshake; try again in a moment"))

// waiting is one connection holding a handshake slot.
type waiting struct {
	c      net.Conn
	since  time.Time
	spoke  atomic.Bool  // it has sent a byte
	lineAt atomic.Int64 // when its last complete line arrived (Unix ns); 0 before the first
	// evicted is guarded by Listener.mu.
	evicted bool
}

// stalled reports whether w has gone at least age without finishing a line.
func (w *waiting) stalled(now time.Time, age time.Duration) bool {
	last := w.since
	if at := w.lineAt.Load(); at != 0 {
		last = time.Unix(0, at)
	}
	return now.Sub(last) >= age
}

// spokeReader reads a waiting connection and records its progress: that it
// spoke, and when a line of it ended.
type spokeReader struct{ w *waiting }

func (r spokeReader) Read(p []byte) (int, error) {
	n, err := r.w.c.Read(p)
	if n > 0 {
		r.w.spoke.Store(true)
		if bytes.IndexByte(p[:n], '\n') >= 0 {
			r.w.lineAt.Store(time.Now().UnixNano())
		}
	}
	return n, err
}

// wait records c as holding a handshake slot.
func (l *Listener) wait(c net.Conn) *waiting {
	w := &waiting{c: c, since: time.Now()}
	l.mu.Lock()
	l.waiting = append(l.waiting, w)
	l.mu.Unlock()
	return w
}

// unwait drops w once it gave back its slot.
func (l *Listener) unwait(w *waiting) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i := slices.Index(l.waiting, w); i >= 0 {
		l.waiting = slices.Delete(l.waiting, i, i+1)
	}
}

// evictStalled closes the oldest connection that has held a handshake
// slot for stallAge without finishing a line, and reports whether there
// was one.
func (l *Listener) evictStalled() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	for _, w := range l.waiting { // oldest first
		if !w.evicted && w.stalled(now, l.stallAge) {
			w.evicted = true
			// A real client stalled by a loaded machine hears it may try again.
			w.c.SetWriteDeadline(now.Add(10 * time.Millisecond))
			w.c.Write(evictedLine)
			w.c.Close()
			l.evicted.Add(1)
			return true
		}
	}
	return false
}

// takeSlot gives a new connection a handshake slot: a free one, else the
// slot of a stalled connection evicted for it. It reports false when every
// slot is held by a connection that is new or has just sent a line.
func (l *Listener) takeSlot() bool {
	select {
	case l.pending <- struct{}{}:
		return true
	default:
	}
	if !l.evictStalled() {
		return false
	}
	t := time.NewTimer(evictWait)
	defer t.Stop()
	select {
	case l.pending <- struct{}{}:
		return true
	case <-t.C:
		return false
	}
}
