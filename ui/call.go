package ui

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"

	"trestle/app/errdefs"
)

// DefaultCallBound is how long Call waits for the main goroutine when the
// caller gives no bound: long enough for a busy frame, short enough that an
// agent hears "busy" instead of hanging.
const DefaultCallBound = 2 * time.Second

// The states of one call. A call moves from pending to running when the main
// goroutine picks it up, or to abandoned when the caller gives up first;
// whichever CompareAndSwap wins decides.
const (
	callPending int32 = iota
	callRunning
	callAbandoned
)

// caller queues functions on the main goroutine. Tests swap do for a fake
// main goroutine, since Fyne's test driver runs fyne.Do inline.
type caller struct {
	do func(func())
}

var mainThread = caller{do: fyne.Do}

// Call runs fn on Fyne's main goroutine and waits until it has run, ctx ends
// or bound passes (bound <= 0 means DefaultCallBound). When it gives up it
// returns an error wrapping errdefs.ErrBusy (and ctx's error when ctx ended),
// and fn, if the main goroutine reaches it later, does nothing. fn runs at
// most once. Call must not be called from the main goroutine; it is safe
// for concurrent use from any other.
func Call(ctx context.Context, bound time.Duration, fn func()) error {
	return mainThread.call(ctx, bound, fn)
}

// CallValue is Call for a function with a result. On error the result is
// the zero value and fn has not run.
func CallValue[T any](ctx context.Context, bound time.Duration, fn func() T) (T, error) {
	var v T
	if err := Call(ctx, bound, func() { v = fn() }); err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

func (c caller) call(ctx context.Context, bound time.Duration, fn func()) error {
	if bound <= 0 {
		bound = DefaultCallBound
	}
	if err := ctx.Err(); err != nil {
		return cancelled(err)
	}
	var state atomic.Int32
	done := make(chan struct{})
	c.do(func() {
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
		err = fmt.Errorf("the window did not answer within %v: %w", bound, errdefs.ErrBusy)
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

func cancelled(ctxErr error) error {
	return fmt.Errorf("the window call ended before the window answered (%w): %w", ctxErr, errdefs.ErrBusy)
}
