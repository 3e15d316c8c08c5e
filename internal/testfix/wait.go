package testfix

import (
	"testing"
	"time"
)

// poll is how often Wait checks its condition by default: short, so a test
// waits hardly longer than the condition takes, and far longer than the
// check. A check that costs more (a tool call, a process start) passes
// Every.
const poll = 5 * time.Millisecond

// WaitOption changes how Wait and WaitFor poll.
type WaitOption func(*waitConfig)

type waitConfig struct{ every time.Duration }

// Every makes Wait check every d instead of every few milliseconds: for
// checks that cost a tool call or a file walk.
func Every(d time.Duration) WaitOption { return func(c *waitConfig) { c.every = d } }

// Wait checks cond until it holds, failing the test with what after d.
// Bounds should be generous (30–60 s): the tests run under -race on a
// loaded machine, and a bound costs nothing when the condition comes.
func Wait(tb testing.TB, d time.Duration, what string, cond func() bool, opts ...WaitOption) {
	tb.Helper()
	WaitFor(tb, d, what, func() (struct{}, bool) { return struct{}{}, cond() }, opts...)
}

// WaitFor calls check until it reports ok and returns what it saw then.
// After d it fails the test with what and the last value check saw, so a
// failure says what was there instead of only what was not:
//
//	text := testfix.WaitFor(t, 30*time.Second, "the saved file", func() (string, bool) {
//		b, _ := os.ReadFile(path)
//		return string(b), strings.Contains(string(b), "formatted")
//	}, testfix.Every(100*time.Millisecond))
func WaitFor[T any](tb testing.TB, d time.Duration, what string, check func() (T, bool), opts ...WaitOption) T {
	tb.Helper()
	cfg := waitConfig{every: poll}
	for _, o := range opts {
		o(&cfg)
	}
	deadline := time.Now().Add(d)
	for {
		v, ok := check()
		if ok {
			return v
		}
		if time.Now().After(deadline) {
			if _, empty := any(v).(struct{}); empty {
				tb.Fatalf("after %v: %s", d, what)
			} else {
				tb.Fatalf("after %v: %s; last seen: %v", d, what, v)
			}
			return v
		}
		time.Sleep(cfg.every)
	}
}

// Receive waits for a value from ch and returns it, failing the test with
// what after d: the bounded form of a select on ch and time.After.
func Receive[T any](tb testing.TB, d time.Duration, what string, ch <-chan T) T {
	tb.Helper()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		tb.Fatalf("after %v: %s", d, what)
		var zero T
		return zero
	}
}
