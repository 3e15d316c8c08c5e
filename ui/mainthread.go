package ui

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"

	"trestle/app/errdefs"
)

// mainThread is the window's one way onto Fyne's main goroutine, and the
// only code in package ui that calls fyne.Do (TestFyneDoOnlyInMainThread
// checks it). Everything that changes the window from another goroutine
// goes through it: do for a change, call for a bounded call that waits,
// after and every for timers, and a streamBatch (streambatch.go) over do
// for a stream batched into few updates.
//
// It knows when the window is closing (close): from then on every function
// is dropped, before it is queued and again when it would run, since once
// Fyne's loop has stopped fyne.Do runs its function on the caller's
// goroutine, beside whatever else touches the widgets.
//
// Tests give it another queue (setQueue: a fake main goroutine, since Fyne's
// test driver runs fyne.Do inline on the caller's goroutine and so races
// under -race) and may hold its timers (holdTimers). A nil or zero
// mainThread queues with fyne.Do and is never closing: what a widget made
// outside a window (in its own test) uses. Safe for concurrent use.
type mainThread struct {
	queue   atomic.Pointer[func(func())] // nil: fyne.Do
	closing atomic.Bool
	held    atomic.Bool // holdTimers: after and every never fire
}

// enqueue hands fn to the main goroutine's queue, closing or not.
func (m *mainThread) enqueue(fn func()) {
	if m != nil {
		if q := m.queue.Load(); q != nil {
			(*q)(fn)
			return
		}
	}
	fyne.Do(fn)
}

// setQueue makes q the main goroutine's queue (a test's fake main
// goroutine); nil restores fyne.Do.
func (m *mainThread) setQueue(q func(func())) {
	if q == nil {
		m.queue.Store(nil)
		return
	}
	m.queue.Store(&q)
}

// holdTimers makes after and every schedule nothing while the queue is
// Fyne's: a test window's toasts, debounces and ticks would otherwise run
// on their timer's goroutine beside the test (Fyne's test driver runs
// fyne.Do inline). With a fake main goroutine (setQueue) they fire into it.
func (m *mainThread) holdTimers() { m.held.Store(true) }

// timersHeld reports whether after and every schedule nothing now.
func (m *mainThread) timersHeld() bool {
	return m != nil && m.held.Load() && m.queue.Load() == nil
}

// close drops everything queued from now on: the window is closing.
func (m *mainThread) close() {
	if m != nil {
		m.closing.Store(true)
	}
}

// closed reports whether close was called.
func (m *mainThread) closed() bool { return m != nil && m.closing.Load() }

// do runs fn on the main goroutine, unless the window is closing: then fn
// is dropped, before it is queued or when it would run. Any goroutine.
func (m *mainThread) do(fn func()) {
	if m.closed() {
		return
	}
	m.enqueue(func() {
		if !m.closed() {
			fn()
		}
	})
}

// after runs fn on the main goroutine (through do) once d has passed, and
// returns the timer, whose Stop cancels it. Held timers never fire.
func (m *mainThread) after(d time.Duration, fn func()) *time.Timer {
	if m.timersHeld() {
		t := time.NewTimer(time.Hour)
		t.Stop()
		return t
	}
	return time.AfterFunc(d, func() { m.do(fn) })
}

// afterStop is after for those that keep only what cancels the timer.
func (m *mainThread) afterStop(d time.Duration, fn func()) (stop func()) {
	t := m.after(d, fn)
	return func() { t.Stop() }
}

// every runs fn on the main goroutine (through do) every d until the
// returned stop is called. Held timers never fire.
func (m *mainThread) every(d time.Duration, fn func()) (stop func()) {
	if m.timersHeld() {
		return func() {}
	}
	t := time.NewTicker(d)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-t.C:
				m.do(fn)
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { t.Stop(); close(done) }) }
}

// stall blocks the main goroutine for d as soon as it gets to it (the
// Stall test hook), closing or not.
func (m *mainThread) stall(d time.Duration) {
	m.enqueue(func() { time.Sleep(d) })
}

// DefaultCallBound is how long a bounded main-thread call waits for the
// main goroutine when the caller gives no bound: long enough for a busy
// frame, short enough that an agent hears "busy" instead of hanging.
const DefaultCallBound = 2 * time.Second

// The states of one call. A call moves from pending to running when the main
// goroutine picks it up, or to abandoned when the caller gives up first;
// whichever CompareAndSwap wins decides.
const (
	callPending int32 = iota
	callRunning
	callAbandoned
)

// call runs fn on Fyne's main goroutine and waits until it has run, ctx
// ends or bound passes (bound <= 0 means DefaultCallBound). When it gives
// up, or the window is closing, it returns an error wrapping
// errdefs.ErrBusy (and ctx's error when ctx ended), and fn, if the main
// goroutine reaches it later, does nothing. fn runs at most once. call
// must not be called from the main goroutine; it is safe for concurrent
// use from any other.
func (m *mainThread) call(ctx context.Context, bound time.Duration, fn func()) error {
	if bound <= 0 {
		bound = DefaultCallBound
	}
	if err := ctx.Err(); err != nil {
		return cancelled(err)
	}
	if m.closed() {
		return errdefs.Errorf(errdefs.ErrBusy, "the window is closing; attach again once a Trestle window is open on the project")
	}
	var state atomic.Int32
	done := make(chan struct{})
	m.enqueue(func() {
		if !state.CompareAndSwap(callPending, callRunning) {
			return // abandoned: the caller has already answered busy
		}
		defer close(done)
		fn()
	})
	timer := time.NewTimer(bound)
	defer timer.Stop()
	var err error
	select {
	case <-done:
		return nil
	case <-timer.C:
		err = errdefs.Errorf(errdefs.ErrBusy, "the window did not answer within %v; try again shortly", bound)
	case <-ctx.Done():
		err = cancelled(ctx.Err())
	}
	if state.CompareAndSwap(callPending, callAbandoned) {
		return err
	}
	// fn started before we gave up: it is short and already on its way, so
	// its effect stands and the caller hears that it happened.
	<-done
	return nil
}

// callValue is call for a function with a result. On error the result is
// the zero value and fn has not run.
func callValue[T any](ctx context.Context, m *mainThread, bound time.Duration, fn func() T) (T, error) {
	var v T
	if err := m.call(ctx, bound, func() { v = fn() }); err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

func cancelled(ctxErr error) error {
	return fmt.Errorf("the window call ended before the window answered (%w): %w", ctxErr, errdefs.ErrBusy)
}

// lineFlushEvery is how often a stream's items reach the main goroutine
// (streamBatch): a test run can print thousands of lines a second, and one
// update per line would starve the UI.
const lineFlushEvery = 50 * time.Millisecond
