package ui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"trestle/app/errdefs"
)

// fakeMain is a stand-in for Fyne's main goroutine: it runs queued
// functions one at a time, in order, until the test ends.
func fakeMain(t *testing.T) (*mainThread, chan<- func()) {
	queue := make(chan func(), 100)
	stop := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case fn := <-queue:
				fn()
			case <-stop:
				return
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-finished })
	return queueMain(func(fn func()) { queue <- fn }), queue
}

// queueMain is a mainThread that hands its functions to q.
func queueMain(q func(func())) *mainThread {
	m := &mainThread{}
	m.setQueue(q)
	return m
}

func TestCallCompletes(t *testing.T) {
	c, _ := fakeMain(t)
	ran := false
	if err := c.call(context.Background(), time.Second, func() { ran = true }); err != nil {
		t.Fatalf("call: %v", err)
	}
	if !ran {
		t.Fatal("fn did not run")
	}
}

func TestCallStalledMainThreadIsBusy(t *testing.T) {
	c, queue := fakeMain(t)
	release := make(chan struct{})
	queue <- func() { <-release } // the main goroutine is stuck
	var ran atomic.Bool
	const bound = 100 * time.Millisecond
	start := time.Now()
	err := c.call(context.Background(), bound, func() { ran.Store(true) })
	elapsed := time.Since(start)
	if !errors.Is(err, errdefs.ErrBusy) {
		t.Fatalf("err = %v, want errdefs.ErrBusy", err)
	}
	if elapsed > bound+200*time.Millisecond {
		t.Errorf("took %v, want about %v", elapsed, bound)
	}
	// Once the main goroutine moves on, the abandoned fn must do nothing.
	close(release)
	done := make(chan struct{})
	queue <- func() { close(done) }
	<-done
	if ran.Load() {
		t.Error("fn ran after the call was abandoned")
	}
}

func TestCallBusyMessageNamesBound(t *testing.T) {
	c := queueMain(func(func()) {}) // a main goroutine that never answers
	err := c.call(context.Background(), 50*time.Millisecond, func() {})
	// Said once: a tool's text starts "busy: ", so the message does not end ": busy" too.
	if !errors.Is(err, errdefs.ErrBusy) || err.Error() != "the window did not answer within 50ms; try again shortly" {
		t.Fatalf("err = %v", err)
	}
}

func TestCallCancelledContext(t *testing.T) {
	tests := []struct {
		name     string
		cancelAt time.Duration // after the call starts; < 0: before
	}{
		{name: "cancelled before", cancelAt: -1},
		{name: "cancelled while waiting", cancelAt: 20 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ran atomic.Bool
			queued := make(chan func(), 1)
			c := queueMain(func(fn func()) { queued <- fn }) // never run until we say
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancelAt < 0 {
				cancel()
			} else {
				time.AfterFunc(tt.cancelAt, cancel)
			}
			start := time.Now()
			err := c.call(ctx, 10*time.Second, func() { ran.Store(true) })
			if !errors.Is(err, errdefs.ErrBusy) || !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want errdefs.ErrBusy and context.Canceled", err)
			}
			if elapsed := time.Since(start); elapsed > time.Second {
				t.Errorf("took %v after cancel", elapsed)
			}
			select {
			case fn := <-queued:
				fn()
			default:
			}
			if ran.Load() {
				t.Error("fn ran after cancellation")
			}
		})
	}
}

func TestCallConcurrentCallsRunOnce(t *testing.T) {
	c, _ := fakeMain(t)
	const n = 50
	var runs [n]atomic.Int32
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.call(context.Background(), 5*time.Second, func() { runs[i].Add(1) }); err != nil {
				t.Errorf("call %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	for i := range runs {
		if got := runs[i].Load(); got != 1 {
			t.Errorf("call %d ran %d times", i, got)
		}
	}
}

func TestCallValue(t *testing.T) {
	test.NewTempApp(t)
	got, err := callValue(context.Background(), &mainThread{}, 0, func() int { return 42 })
	if err != nil || got != 42 {
		t.Fatalf("CallValue = %d, %v; want 42, nil", got, err)
	}
}

// TestCallOnAClosingWindowSaysSoOnce: a call once the window is closing
// answers busy without running fn, in words an agent can act on that do
// not repeat the state ("busy: the window is closing: busy" before).
func TestCallOnAClosingWindowSaysSoOnce(t *testing.T) {
	m := &mainThread{}
	m.close()
	ran := false
	err := m.call(context.Background(), 0, func() { ran = true })
	if !errors.Is(err, errdefs.ErrBusy) || ran {
		t.Fatalf("call on a closing window = %v (ran %v), want busy and fn not run", err, ran)
	}
	if msg := err.Error(); strings.Count(msg, "busy") != 0 || !strings.Contains(msg, "closing") {
		t.Errorf("message %q: want it to say the window is closing, once, without the state's word", msg)
	}
}

func TestCallWithFyneTestDriver(t *testing.T) {
	test.NewTempApp(t)
	ran := false
	if err := (&mainThread{}).call(context.Background(), 0, func() { ran = true }); err != nil {
		t.Fatalf("Call: %v", err)
	}
	if !ran {
		t.Fatal("fn did not run")
	}
}

// TestCallAnswerMatchesWhatRan races the bound against a main goroutine
// that is sometimes just too slow: a call that answered nil must have run
// its fn, and one that answered busy must never run it.
func TestCallAnswerMatchesWhatRan(t *testing.T) {
	c, queue := fakeMain(t)
	for i := range 200 {
		queue <- func() { time.Sleep(time.Duration(i%3) * 500 * time.Microsecond) }
		var ran atomic.Bool
		err := c.call(context.Background(), time.Millisecond, func() { ran.Store(true) })
		done := make(chan struct{})
		queue <- func() { close(done) }
		<-done
		if (err == nil) != ran.Load() {
			t.Fatalf("call %d: err = %v but ran = %v", i, err, ran.Load())
		}
	}
}
