package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"trestle/app/task"
)

// Tasks in the window: the Run menu starts them, and every run (the
// person's or an agent's) streams into the Run pane, batched, with its
// problems in the Problems pane.

// RunStarted shows a new run in the Run pane (runUI.started). Safe for
// concurrent use.
func (w *Window) RunStarted(client string, run *task.Run) { w.run.started(client, run) }

// RunLine adds one output line to the Run pane, batched (runUI.line).
// Safe for concurrent use.
func (w *Window) RunLine(l task.Line) { w.run.line(l) }

// RunEnded shows how a run ended and its problems (runUI.ended). Safe for
// concurrent use.
func (w *Window) RunEnded(run *task.Run) { w.run.ended(run) }

// runUI is the window's part for runs: the Run menu's tasks, after the
// unsaved editors are dealt with (unsaved.go) and the project trusted
// where the task needs it, Test at Cursor (testatcursor.go) and Stop; and
// every run, the person's or an agent's, streamed into the Run pane. It
// reaches the window's services, tabs and panes through w. Main goroutine
// only, but for what says otherwise.
type runUI struct {
	w *Window
	// lines carries a run's output to the Run pane in batches, through the
	// window's mainThread: in order, none lost (the pane keeps the last
	// maxRunLines), flushed before the run's end is shown.
	lines streamBatch[task.Line]
	// shown is the run whose head the Run pane shows; early holds the lines
	// of the run not yet shown (the runner sends lines as soon as the
	// process starts, before RunStarted can queue the head), shown after
	// its head. Main goroutine only.
	shown string
	early struct {
		run   string
		lines []string
	}
}

// newRunUI makes w's part for runs.
func newRunUI(w *Window) *runUI {
	r := &runUI{w: w}
	r.lines = streamBatch[task.Line]{do: w.main.do, show: func(lines []task.Line, _ int) { r.show(lines) }}
	return r
}

// show adds lines to the Run pane, holding those of a run whose head is
// not shown yet (early). Main goroutine only.
func (r *runUI) show(lines []task.Line) {
	texts := make([]string, 0, len(lines))
	for _, l := range lines {
		switch {
		case l.Run == r.shown:
			texts = append(texts, l.Text)
		case l.Run == r.early.run:
			r.early.lines = append(r.early.lines, l.Text)
		default: // one run at a time: a newer run's lines replace what was held
			r.early.run, r.early.lines = l.Run, []string{l.Text}
		}
	}
	if n := len(r.early.lines) - maxRunLines; n > 0 {
		r.early.lines = r.early.lines[n:]
	}
	r.w.panes.run.append(texts...)
}

// started shows a new run in the Run pane, then the lines it printed
// before. Safe for concurrent use.
func (r *runUI) started(client string, run *task.Run) {
	w := r.w
	head := fmt.Sprintf("$ %s    [%s, %s]", strings.Join(run.Command(), " "), run.ID, client)
	w.onMain(func() {
		w.panes.runView.begin(head)
		r.shown = run.ID
		if r.early.run == run.ID {
			w.panes.run.append(r.early.lines...)
			r.early.run, r.early.lines = "", nil
		}
		w.panes.show(w.panes.runView)
		w.panes.problems.set(nil)
	})
}

// line adds one output line to the Run pane, batched. Once the window is
// closing the line is dropped here, so a run that goes on does not pile
// up lines no hand-over will take. Safe for concurrent use.
func (r *runUI) line(l task.Line) {
	if r.w.main.closed() {
		return
	}
	r.lines.add(l)
}

// ended shows how a run ended and its problems. Safe for concurrent use.
func (r *runUI) ended(run *task.Run) {
	w := r.w
	r.lines.flush()
	tail := fmt.Sprintf("[%s %s: exit code %d, %s]", run.ID, run.State(), run.ExitCode(), run.Duration().Round(time.Millisecond))
	var probs []Problem
	for _, p := range run.Problems() {
		probs = append(probs, Problem{Path: p.Path, Line: p.Line, Col: p.Col, Message: p.Message})
	}
	w.onMain(func() {
		w.panes.runView.end(tail)
		w.panes.problems.set(probs)
	})
}

// byPerson starts a task from the Run menu, off the main goroutine, with
// args after the task's own (the runner lets package patterns in args
// replace the task's packages), once the unsaved editors are saved (or the
// person chose; see unsaved.go). A task that runs the project's code in an
// untrusted project (go test) asks the person to trust it first. Main
// goroutine only.
func (r *runUI) byPerson(name string, args ...string) {
	w := r.w
	if w.services.Tasks == nil {
		return
	}
	conf, _ := w.services.ProjectConfig()
	if t, ok := conf.Task(name); ok {
		if err := task.CheckTrust(t, args); err != nil { // go test in an untrusted project
			w.trust.askToRun(t, args, err, func() { r.byPerson(name, args...) })
			return
		}
	}
	r.beforeByPerson("the "+name+" task", func() { r.start(name, args...) })
}

// start starts the task name off the main goroutine and follows it in
// the Run pane. Main goroutine only.
func (r *runUI) start(name string, args ...string) {
	w := r.w
	sel := w.config.selection
	w.loading.Go(func() {
		conf, _ := w.services.ProjectConfig()
		t, ok := conf.Task(name)
		s, _ := conf.Selection(selectionName(sel))
		if !ok {
			w.Notify(fmt.Sprintf("there is no task %q", name))
			return
		}
		run, err := w.services.Tasks.Start(context.Background(), t, args, s, r.line)
		if err != nil {
			w.Notify(err.Error())
			return
		}
		if _, withheld := conf.WithheldTask(name); withheld {
			w.Notify(fmt.Sprintf("The project is untrusted, so .trestle.json's %s task is not used: %s runs (Untrusted in the status bar to trust it).",
				name, strings.Join(t.Command, " ")))
		}
		r.started(person, run)
		<-run.Done()
		r.ended(run)
	})
}

// stop stops the running task, off the main goroutine.
func (r *runUI) stop() {
	w := r.w
	if w.services.Tasks == nil {
		return
	}
	w.loading.Go(func() {
		if err := w.services.Tasks.Stop(); err != nil {
			w.Notify(err.Error())
		}
	})
}
