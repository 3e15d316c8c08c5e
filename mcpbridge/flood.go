package mcpbridge

import (
	"net"
	"slices"
	"sync/atomic"
	"time"
)

// A paced flood of silent connections kept every handshake slot taken: each
// slot a connection's handshake bound freed was refilled by the next one at
// once, and a real client, refused as busy, retried in vain. A real client
// speaks as soon as it connects (the bridge's hello), so when every slot is
// taken the oldest connection that has said nothing gives way to the new one.

const (
	// silentAge is how long a connection must have said nothing before a
	// new one may take its slot: a real client's first line arrives well
	// within it, even on a loaded machine.
	silentAge = 250 * time.Millisecond
	// evictWait bounds how long the accept loop waits for an evicted
	// connection to give back its slot.
	evictWait = time.Second
)

// waiting is one connection holding a handshake slot.
type waiting struct {
	c       net.Conn
	since   time.Time
	spoke   atomic.Bool // it has sent a byte
	evicted bool        // guarded by Listener.mu
}

// spokeReader reads a waiting connection and marks it as having spoken.
type spokeReader struct{ w *waiting }

func (r spokeReader) Read(p []byte) (int, error) {
	n, err := r.w.c.Read(p)
	if n > 0 {
		r.w.spoke.Store(true)
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

// evictSilent closes the oldest connection that has held a handshake slot
// for silentAge without a byte, and reports whether there was one.
func (l *Listener) evictSilent() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, w := range l.waiting { // oldest first
		if !w.evicted && !w.spoke.Load() && time.Since(w.since) >= silentAge {
			w.evicted = true
			w.c.Close()
			l.evicted.Add(1)
			return true
		}
	}
	return false
}

// takeSlot gives a new connection a handshake slot: a free one, else the
// slot of a silent connection evicted for it. It reports false when every
// slot is held by a connection that spoke or is new.
func (l *Listener) takeSlot() bool {
	select {
	case l.pending <- struct{}{}:
		return true
	default:
	}
	if !l.evictSilent() {
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
