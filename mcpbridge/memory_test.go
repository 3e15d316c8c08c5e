package mcpbridge

import (
	"testing"
	"time"

	"trestle/internal/testfix"
)

// TestIdleFreeAfterALoad: memory is freed once, when a load of calls is
// followed by quiet; fewer calls than a load free nothing, and the count
// starts again after a free.
func TestIdleFreeAfterALoad(t *testing.T) {
	freed := make(chan struct{}, 4)
	f := &idleFree{after: time.Millisecond, calls: 3, free: func() { freed <- struct{}{} }}
	f.ended()
	f.ended()
	f.mu.Lock()
	armed := f.timer != nil
	f.mu.Unlock()
	if armed {
		t.Fatal("two calls, below the load of three, armed the free")
	}
	f.ended()
	select {
	case <-freed:
	case <-time.After(time.Minute):
		t.Fatal("no free after a load of three calls and quiet")
	}
	testfix.Wait(t, time.Minute, "the count to start again", func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.n == 0 && f.timer == nil
	})
}
