package testfix

import (
	"testing"
	"time"
)

// poll is how often Wait checks its condition: short, so a test waits
// hardly longer than the condition takes, and far longer than the check.
const poll = 5 * time.Millisecond

// Wait checks cond until it holds, failing the test with what after d.
// Bounds should be generous: the tests run under -race on a loaded machine.
func Wait(tb testing.TB, d time.Duration, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("after %v: %s", d, what)
		}
		time.Sleep(poll)
	}
}
