package mcpbridge

import (
	"context"
	"runtime"
	"runtime/debug"
	"sync"
	"time"
)

// What one session may make the window hold. Past a bound the session
// does not refuse: it stops reading its connection until answers drain,
// and the client's writes wait in TCP (or the pipe) as they would for any
// slow server.
const (
	// maxCalls is how many requests of one session may wait or run at once.
	maxCalls = 64
	// maxHeldBytes bounds the bytes a session holds: its requests (each
	// counted at what decoding it costs, see lineCost) and its answers not
	// yet written. Reading stops while it is reached, so a session holds at
	// most this much plus one line.
	maxHeldBytes = 32 << 20
	// maxAnswerBytes bounds the answers waiting for a client that reads
	// slowly: a request starts only while they hold less, so a client that
	// never reads holds at most this much plus what its running turns make.
	maxAnswerBytes = 16 << 20
)

// budget counts what one session holds, from the line read to the answer
// written, and lets its read loop and its requests wait for room. Safe for
// concurrent use.
type budget struct {
	mu      sync.Mutex
	changed chan struct{} // closed and replaced whenever room is given back
	calls   int           // requests read and not yet answered
	held    int           // bytes of those requests and of answers not yet written
	answers int           // bytes of answers not yet written

	paused               bool // the read loop is waiting for room
	peakCalls, peakBytes int  // the most ever held (tests and giveBack read them)
}

// wait blocks until room reports true (called with b.mu held) or ctx
// ends, and reports whether there is room.
func (b *budget) wait(ctx context.Context, room func() bool) bool {
	for {
		b.mu.Lock()
		if room() {
			b.mu.Unlock()
			return true
		}
		changed := b.changed
		b.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		}
	}
}

// waitToRead is the read loop's gate: it returns once the session holds
// fewer than maxCalls requests and maxHeldBytes, false when ctx ends first.
func (b *budget) waitToRead(ctx context.Context) bool {
	ok := b.wait(ctx, func() bool {
		b.paused = b.calls >= maxCalls || b.held >= maxHeldBytes
		return !b.paused
	})
	b.mu.Lock()
	b.paused = false
	b.mu.Unlock()
	return ok
}

// waitToStart is a request's gate before it runs: it returns once the
// answers waiting for the writer hold less than maxAnswerBytes.
func (b *budget) waitToStart(ctx context.Context) bool {
	return b.wait(ctx, func() bool { return b.answers < maxAnswerBytes })
}

// take counts a request read, at cost bytes.
func (b *budget) take(cost int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls++
	b.held += cost
	b.peakCalls = max(b.peakCalls, b.calls)
	b.peakBytes = max(b.peakBytes, b.held)
}

// done gives back a request's place once it has its answer (or none).
func (b *budget) done(cost int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls--
	b.held -= cost
	b.signalLocked()
}

// queued counts an answer of n bytes handed to the writer.
func (b *budget) queued(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.answers += n
	b.held += n
	b.peakBytes = max(b.peakBytes, b.held)
}

// written gives back an answer's n bytes once the writer is done with it.
func (b *budget) written(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.answers -= n
	b.held -= n
	b.signalLocked()
}

func (b *budget) signalLocked() {
	close(b.changed)
	b.changed = make(chan struct{})
}

// pausedNow reports whether the read loop is waiting for room.
func (b *budget) pausedNow() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.paused
}

// peaks returns the most requests and bytes the session ever held.
func (b *budget) peaks() (calls, bytes int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peakCalls, b.peakBytes
}

// now returns the requests and bytes the session holds now.
func (b *budget) now() (calls, bytes int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.calls, b.held
}

// giveBackAfter is the peak a session must have held for its end to hand
// memory back to the operating system: one trestle_read of a large file
// holds this much while its answer waits for the writer.
const giveBackAfter = 16 << 20

// giveBackDelay lets sessions that end together (a client that drops
// several at once, or the write bound dropping a flood) give their memory
// back in one go.
const giveBackDelay = time.Second

var (
	giveBackOnce  sync.Once
	giveBackTimer *time.Timer
)

// giveBack returns the heap a large session left to the operating system
// soon after it ends. Go's scavenger would do it too, but over minutes,
// and encoding/json keeps its large encoding buffers pooled until a second
// GC: a window that a few sessions took to gigabytes should not hold them
// (nor count, to the OOM killer, as if it did) long after they are gone.
// The two collections it costs run only after sessions that held over
// giveBackAfter, at most once per giveBackDelay.
func giveBack(b *budget) {
	if _, peak := b.peaks(); peak < giveBackAfter {
		return
	}
	giveBackOnce.Do(func() {
		giveBackTimer = time.AfterFunc(giveBackDelay, func() {
			runtime.GC() // the first empties sync.Pools into their victim caches
			debug.FreeOSMemory()
		})
	})
	giveBackTimer.Reset(giveBackDelay)
}
