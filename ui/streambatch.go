package ui

import (
	"sync"
	"time"
)

// streamBatch carries a stream's items onto the main goroutine in batches:
// a run's output lines (runUI), a hosted agent's session updates
// (agentHost). It is the window's one batcher for streams. The first item
// after a hand-over schedules the next one lineFlushEvery later,
// so a fast stream costs one main-thread call per interval however many
// items it sends. Items keep their order and none is lost, up to max
// waiting: past it they are counted as dropped, never waited for, so add
// never blocks its sender (an ACP connection must not). flush hands over
// at once what has come so far: a turn's or a run's end, before what
// follows it.
//
// The items are taken on the main goroutine, so at most one scheduled
// hand-over is on its way at a time, and a stalled main goroutine holds at
// most max items. Safe for concurrent use; show runs on the main goroutine.
type streamBatch[T any] struct {
	// do runs a function on the main goroutine: the window's mainThread
	// (w.main.do, w.onMain), which drops it once the window is closing, or
	// a test's fake main goroutine.
	do func(func())
	// show shows items, and says how many were dropped before them. Main
	// goroutine only.
	show func(items []T, dropped int)
	// max bounds the items waiting; 0 means no bound (a run's lines: the
	// Run pane keeps the newest, so none may be dropped on the way).
	max int
	// after schedules the hand-over; nil is time.AfterFunc.
	after func(d time.Duration, fn func())

	mu        sync.Mutex
	items     []T
	dropped   int
	scheduled bool // a hand-over is scheduled or queued and has not taken the items yet
}

// add queues v for the main goroutine. It never blocks. Any goroutine.
func (b *streamBatch[T]) add(v T) {
	b.mu.Lock()
	if b.max > 0 && len(b.items) >= b.max {
		b.dropped++
	} else {
		b.items = append(b.items, v)
	}
	schedule := !b.scheduled
	b.scheduled = true
	b.mu.Unlock()
	if !schedule {
		return
	}
	hand := func() { b.do(b.take) }
	if b.after != nil {
		b.after(lineFlushEvery, hand)
	} else {
		time.AfterFunc(lineFlushEvery, hand)
	}
}

// flush queues the hand-over of what has been added so far, when there is
// any, ahead of whatever the caller queues next on the main goroutine.
// Any goroutine.
func (b *streamBatch[T]) flush() {
	b.mu.Lock()
	empty := len(b.items) == 0 && b.dropped == 0
	b.mu.Unlock()
	if !empty {
		b.do(b.take)
	}
}

// take shows what has been added so far. Main goroutine only.
func (b *streamBatch[T]) take() {
	b.mu.Lock()
	items, dropped := b.items, b.dropped
	b.items, b.dropped, b.scheduled = nil, 0, false
	b.mu.Unlock()
	if len(items) > 0 || dropped > 0 {
		b.show(items, dropped)
	}
}
