package ui

import (
	"slices"
	"testing"
	"time"
)

// TestStreamBatchKeepsOrderAndCountsDrops: items added while a hand-over
// is scheduled go in one call to the main goroutine, in order; past max
// they are counted as dropped; flush hands over at once what has come; the
// first item after a hand-over schedules the next one.
func TestStreamBatchKeepsOrderAndCountsDrops(t *testing.T) {
	var queued []func() // the main goroutine's queue, run by the test
	var got []int
	var shows, dropped, scheduled int
	var timers []func()
	b := &streamBatch[int]{
		do:    func(fn func()) { queued = append(queued, fn) },
		show:  func(items []int, d int) { shows++; got = append(got, items...); dropped += d },
		max:   5,
		after: func(_ time.Duration, fn func()) { scheduled++; timers = append(timers, fn) },
	}
	runMain := func() {
		for len(queued) > 0 {
			fn := queued[0]
			queued = queued[1:]
			fn()
		}
	}
	for i := range 8 {
		b.add(i)
	}
	if scheduled != 1 || len(queued) != 0 {
		t.Fatalf("8 adds scheduled %d hand-overs and queued %d calls; want 1 and 0", scheduled, len(queued))
	}
	timers[0]() // the interval has passed
	runMain()
	if !slices.Equal(got, []int{0, 1, 2, 3, 4}) || dropped != 3 || shows != 1 {
		t.Fatalf("shown %v in %d calls, %d dropped; want [0 1 2 3 4] in 1, 3 dropped", got, shows, dropped)
	}
	b.add(5)
	b.add(6)
	b.flush() // a turn's end: now, not at the timer
	runMain()
	if !slices.Equal(got, []int{0, 1, 2, 3, 4, 5, 6}) || shows != 2 || scheduled != 2 {
		t.Fatalf("after flush: shown %v in %d calls, %d scheduled", got, shows, scheduled)
	}
	b.flush() // nothing waits: no call
	timers[1]()
	runMain()
	if shows != 2 {
		t.Errorf("an empty flush or timer showed something: %d calls", shows)
	}
}
