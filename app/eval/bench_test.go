package eval

import (
	"context"
	"testing"
	"time"
)

// BenchmarkEvalWarm is the round trip of `1+1` on a warm worker (target ≤ 2 ms).
func BenchmarkEvalWarm(b *testing.B) {
	m := newTestManager(b, nil)
	ctx := context.Background()
	if _, err := m.Eval(ctx, "", "0", 0); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if res, err := m.Eval(ctx, "", "1+1", 0); err != nil || res.Value != "2" {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkColdStart is a worker start (process, GOPATH tree, interpreter)
// plus a first `1` (target ≤ 300 ms).
func BenchmarkColdStart(b *testing.B) {
	m := newTestManager(b, nil)
	ctx := context.Background()
	for b.Loop() {
		m.Restart("")
		if _, err := m.Eval(ctx, "", "1", 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeadlineOverrun measures how long after the deadline the caller
// hears of it (target ≤ 100 ms), reported as ms-past-deadline.
func BenchmarkDeadlineOverrun(b *testing.B) {
	m := newTestManager(b, nil)
	ctx := context.Background()
	const deadline = 200 * time.Millisecond
	var late time.Duration
	for b.Loop() {
		b.StopTimer()
		if _, err := m.Eval(ctx, "", "0", 0); err != nil { // warm, outside the measure
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		if _, err := m.Eval(ctx, "", "for {}", deadline); err == nil {
			b.Fatal("no deadline error")
		}
		late += time.Since(start) - deadline
	}
	b.ReportMetric(float64(late.Microseconds())/1000/float64(b.N), "ms-past-deadline")
}
