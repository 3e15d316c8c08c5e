package ui

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"trestle/app/projconf"
	"trestle/app/task"
	"trestle/internal/testfix"
)

// TestRunOutputReachesTheRunPaneInBatches: a real process prints three
// thousand lines into the Run pane through the window's run stream
// (RunStarted, RunLine, RunEnded); the pane shows every line, in order,
// between the run's head and its "exit code" line, while the lines reach
// the main goroutine in batches: far fewer main-thread calls than lines.
func TestRunOutputReachesTheRunPaneInBatches(t *testing.T) {
	w := newTestWindow(t)
	onMain, calls := countingMain(t, w)
	// The first hand-over waits until the run's head is queued (the
	// runner sends lines as soon as it starts, before RunStarted).
	started := make(chan struct{})
	w.run.lines.after = func(d time.Duration, fn func()) {
		time.AfterFunc(d, func() { <-started; fn() })
	}
	runAndCheck(t, w, onMain, calls.Load, func() {}, func() { close(started) })
}

// TestRunLinesBeforeItsHeadAreKept: on a loaded machine the runner's
// first lines can reach the Run pane before RunStarted queues the run's
// head (the runner sends lines as soon as the process starts). Those lines
// are shown after the head, not written under the last run and then
// cleared by the new head.
func TestRunLinesBeforeItsHeadAreKept(t *testing.T) {
	w := newTestWindow(t)
	onMain, calls := countingMain(t, w)
	// RunStarted waits until the first hand-over of lines has reached the
	// main goroutine: the order a loaded machine can give.
	handed := make(chan struct{})
	var once atomic.Bool
	w.run.lines.after = func(d time.Duration, fn func()) {
		time.AfterFunc(d, func() {
			fn()
			if once.CompareAndSwap(false, true) {
				onMain(func() {}) // the hand-over queued by fn has run
				close(handed)
			}
		})
	}
	runAndCheck(t, w, onMain, calls.Load, func() {
		testfix.Receive(t, 60*time.Second, "the first lines on the main goroutine", handed)
	}, func() {})
}

// runAndCheck runs a task printing lines through w's run stream, calls
// RunStarted between before and after, and checks the Run pane shows the
// head, every line in order, then the end, in few main-thread calls.
func runAndCheck(t *testing.T, w *Window, onMain func(func()), calls func() int64, before, after func()) {
	t.Helper()
	const lines = 3000
	tk := projconf.Task{Name: "count", Command: []string{"sh", "-c",
		fmt.Sprintf(`i=1; while [ $i -le %d ]; do echo "line $i"; i=$((i+1)); done`, lines)}}
	r, err := task.NewRunner(w.project.Root).Start(context.Background(), tk, nil, projconf.Selection{}, w.RunLine)
	if err != nil {
		t.Fatal(err)
	}
	before()
	first := calls()
	w.RunStarted("person", r)
	after()
	testfix.Receive(t, 60*time.Second, "the run's end", r.Done())
	w.RunEnded(r)
	made := calls() - first
	var text string
	testfix.Wait(t, 30*time.Second, "the run's end in the Run pane", func() bool {
		onMain(func() { text = w.panes.run.text(0) })
		return strings.Contains(text, "exit code")
	}, testfix.Every(10*time.Millisecond))
	var want strings.Builder
	fmt.Fprintf(&want, "$ sh -c %s    [%s, person]\n", tk.Command[2], r.ID)
	for i := 1; i <= lines; i++ {
		fmt.Fprintf(&want, "line %d\n", i)
	}
	if !strings.HasPrefix(text, want.String()) {
		t.Fatalf("the Run pane does not show the head and then every line in order:\n%.2000s", text)
	}
	tail := strings.TrimPrefix(text, want.String())
	if !strings.HasPrefix(tail, "["+r.ID+" ") || !strings.Contains(tail, "exit code 0") || strings.Count(tail, "\n") != 1 {
		t.Errorf("after the last line the pane shows %q, want the run's end alone", tail)
	}
	if made > lines/4 {
		t.Errorf("%d lines took %d main-thread calls: they are not batched", lines, made)
	}
	t.Logf("%d lines, %d main-thread calls", lines, made)
}

// countingMain gives w a fake main goroutine that counts the functions
// queued on it, closed with the test; onMain runs fn there and waits.
func countingMain(t *testing.T, w *Window) (onMain func(func()), calls *atomic.Int64) {
	fake, run := fakeMain(t)
	calls = new(atomic.Int64)
	w.main.setQueue(func(fn func()) { calls.Add(1); fake.enqueue(fn) })
	t.Cleanup(func() {
		closed := make(chan struct{})
		run <- func() { w.main.close(); close(closed) }
		<-closed
		w.main.setQueue(nil)
	})
	return func(fn func()) {
		done := make(chan struct{})
		run <- func() { fn(); close(done) }
		<-done
	}, calls
}
