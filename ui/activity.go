package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"trestle/app/eval"
	"trestle/app/projconf"
	"trestle/app/services"
	"trestle/app/task"
	"trestle/app/watch"
)

// person is how the Eval and Run panes name what the person asked for.
const person = "you"

// lineFlushEvery batches a run's output into main-thread updates: a test
// run can print thousands of lines a second, and one fyne.Do per line would
// starve the UI.
const lineFlushEvery = 50 * time.Millisecond

// SetServices connects the Eval pane and the Run menu to the project's
// evaluator and tasks. It must be called on the main goroutine, before
// SetActions.
func (w *Window) SetServices(s services.Services) {
	w.services = s
	if s.LSP != nil {
		w.startGopls(s.LSP)
	}
	w.panes.eval.onSubmit = w.evalByPerson
	w.panes.eval.onStop = w.stopEval
	w.panes.eval.onReplay = w.replayEval
	w.status.selection.OnChanged = func(name string) {
		if name != selectionName(w.selection) {
			w.selectSelection(name)
		}
	}
	w.loadConfig()
	w.watchEvalBuilds()
}

// evalByPerson evaluates what the person typed, off the main goroutine.
func (w *Window) evalByPerson(code string) {
	if w.services.Eval == nil {
		w.status.notify("evaluation is not available in this window")
		return
	}
	sel := w.selection
	deadline := w.evalDeadline()
	w.status.eval.SetText("evaluator: running")
	w.loading.Go(func() {
		res, err := w.services.Eval.Eval(context.Background(), sel, code, deadline)
		w.EvalDone(person, sel, code, res, err)
	})
}

// evalDeadline is the person's evaluation deadline setting. Main goroutine only.
func (w *Window) evalDeadline() time.Duration {
	if s := w.settings.EvalDeadline; s > 0 {
		return time.Duration(s) * time.Second
	}
	return eval.DefaultTimeout
}

// replayClient names replayed inputs in the transcript.
const replayClient = "replay"

// replayEval evaluates again, in order, the inputs that defined a lost
// evaluator's state (the evaluator's own list, Manager.Replay: the same
// replay as trestle_eval's), each shown in the transcript, stopping at the
// first that fails. Main goroutine.
func (w *Window) replayEval(sel string, _ []string) {
	if w.services.Eval == nil {
		return
	}
	if sel == "default" {
		sel = ""
	}
	deadline := w.evalDeadline()
	w.loading.Go(func() {
		w.services.Eval.Replay(context.Background(), sel, deadline, func(code string, res eval.Result, err error) {
			w.EvalDone(replayClient, sel, code, res, err)
		})
	})
}

// EvalDone shows an evaluation in the Eval pane and, when the evaluator
// was killed, offers to replay the inputs that had defined its state (as
// the evaluator kept them: the person's and agents'); the offer goes once
// nothing is left to replay. Safe for concurrent use.
func (w *Window) EvalDone(client, selection, code string, res eval.Result, err error) {
	lines := transcript(client, code, res, err)
	statuses := w.evalStatuses()
	sel := selectionName(selection)
	lost := res.StateLost || errors.Is(err, eval.ErrDeadline) || errors.Is(err, eval.ErrStopped) || errors.Is(err, eval.ErrDied)
	remaining := len(res.Lost)
	if w.services.Eval != nil {
		remaining = len(w.services.Eval.Lost(selection))
	}
	fyne.Do(func() {
		w.panes.eval.transcript.append(lines...)
		w.showEvalState(statuses)
		switch {
		case lost:
			w.panes.eval.offerReplay(sel, res.Lost)
		case remaining == 0 && w.panes.eval.pending.sel == sel:
			w.panes.eval.hideReplay()
		}
	})
}

// evalStatuses reads the evaluators' states; safe on any goroutine.
func (w *Window) evalStatuses() []eval.WorkerStatus {
	if w.services.Eval == nil {
		return nil
	}
	return w.services.Eval.Status()
}

// showEvalState shows the active selection's evaluator state in the status
// bar. Main goroutine only (it reads the active selection).
func (w *Window) showEvalState(statuses []eval.WorkerStatus) {
	state := "off"
	if w.services.Eval != nil {
		state = string(eval.StateStopped)
	}
	for _, st := range statuses {
		if st.Selection == selectionName(w.selection) {
			state = string(st.State)
		}
	}
	w.status.eval.SetText("evaluator: " + state)
}

func selectionName(s string) string {
	if s == "" {
		return "default"
	}
	return s
}

// transcript renders one evaluation for the Eval pane. A compiled one is
// marked on its input's first line.
func transcript(client, code string, res eval.Result, err error) []evalLine {
	var out []evalLine
	tag := client
	if res.Mode == eval.ModeCompiled {
		tag += ", compiled"
	}
	for i, l := range strings.Split(strings.TrimRight(code, "\n"), "\n") {
		prefix := "  "
		if i == 0 {
			prefix = fmt.Sprintf("» [%s] ", tag)
		}
		out = append(out, evalLine{prefix + l, lineInput})
	}
	if res.Output != "" {
		for _, l := range strings.Split(strings.TrimRight(res.Output, "\n"), "\n") {
			out = append(out, evalLine{l, lineOutput})
		}
	}
	switch {
	case err != nil:
		out = append(out, evalLine{"! " + err.Error(), lineError})
	case res.Err != "":
		for i, l := range strings.Split(res.Err, "\n") {
			prefix := "! "
			if i > 0 {
				prefix = "  "
			}
			out = append(out, evalLine{prefix + l, lineError})
		}
	case res.Value != "":
		out = append(out, evalLine{fmt.Sprintf("= %s (%s)", res.Value, res.Type), lineValue})
	}
	for _, n := range res.Notes {
		out = append(out, evalLine{"note: " + n, lineNote})
	}
	return append(out, evalLine{})
}

// RunStarted shows a new run in the Run pane. Safe for concurrent use.
func (w *Window) RunStarted(client string, run *task.Run) {
	head := fmt.Sprintf("$ %s    [%s, %s]", strings.Join(run.Command(), " "), run.ID, client)
	fyne.Do(func() {
		w.panes.runView.begin(head)
		w.panes.tabs.Select(w.panes.runTab)
		w.panes.problems.set(nil)
	})
}

// RunLine adds one output line to the Run pane, batched. Safe for
// concurrent use.
func (w *Window) RunLine(l task.Line) {
	w.runLines.add(l.Text, func(lines []string) {
		fyne.Do(func() { w.panes.run.append(lines...) })
	})
}

// RunEnded shows how a run ended and its problems. Safe for concurrent use.
func (w *Window) RunEnded(run *task.Run) {
	w.runLines.flush()
	tail := fmt.Sprintf("[%s %s: exit code %d, %s]", run.ID, run.State(), run.ExitCode(), run.Duration().Round(time.Millisecond))
	var probs []Problem
	for _, p := range run.Problems() {
		probs = append(probs, Problem{Path: p.Path, Line: p.Line, Col: p.Col, Message: p.Message})
	}
	fyne.Do(func() {
		w.panes.runView.end(tail)
		w.panes.problems.set(probs)
	})
}

// runByPerson starts a task from the Run menu, off the main goroutine, with
// args after the task's own (the runner lets package patterns in args
// replace the task's packages).
func (w *Window) runByPerson(name string, args ...string) {
	if w.services.Tasks == nil {
		return
	}
	sel := w.selection
	w.loading.Go(func() {
		conf, _ := w.services.ProjectConfig()
		t, ok := conf.Task(name)
		s, _ := conf.Selection(selectionName(sel))
		if !ok {
			w.Notify(fmt.Sprintf("there is no task %q", name))
			return
		}
		run, err := w.services.Tasks.Start(context.Background(), t, args, s, w.RunLine)
		if err != nil {
			w.Notify(err.Error())
			return
		}
		w.RunStarted(person, run)
		<-run.Done()
		w.RunEnded(run)
	})
}

// restartEvaluator restarts the active selection's evaluator.
func (w *Window) restartEvaluator() {
	if w.services.Eval == nil {
		return
	}
	sel := w.selection
	w.loading.Go(func() {
		if err := w.services.Eval.Restart(sel); err != nil {
			w.Notify(err.Error())
			return
		}
		w.Notify("Restarted the " + selectionName(sel) + " evaluator.")
		statuses := w.evalStatuses()
		fyne.Do(func() {
			w.panes.eval.hideReplay()
			w.showEvalState(statuses)
		})
	})
}

// stopRun stops the running task, off the main goroutine.
func (w *Window) stopRun() {
	if w.services.Tasks == nil {
		return
	}
	w.loading.Go(func() {
		if err := w.services.Tasks.Stop(); err != nil {
			w.Notify(err.Error())
		}
	})
}

// lineBatch collects lines and hands them on at most every lineFlushEvery.
// Safe for concurrent use.
type lineBatch struct {
	mu      sync.Mutex
	lines   []string
	send    func([]string)
	pending bool
}

func (b *lineBatch) add(line string, send func([]string)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.lines = append(b.lines, line)
	b.send = send
	if !b.pending {
		b.pending = true
		time.AfterFunc(lineFlushEvery, b.flush)
	}
}

func (b *lineBatch) flush() {
	b.mu.Lock()
	lines, send := b.lines, b.send
	b.lines, b.pending = nil, false
	b.mu.Unlock()
	if len(lines) > 0 && send != nil {
		send(lines)
	}
}

// Output is the text of the Run ("run") or Eval ("eval") pane, its last
// tail lines when tail > 0. One bounded main-thread call; safe for
// concurrent use from any goroutine but the main one.
func (w *Window) Output(ctx context.Context, pane string, tail int) (string, error) {
	if pane == "eval" {
		return CallValue(ctx, 0, func() string { return w.panes.eval.transcript.text(tail) })
	}
	return CallValue(ctx, 0, func() string { return w.panes.run.text(tail) })
}

// loadConfig reads .trestle.json off the main goroutine and shows its
// selections in the status bar's picker, and its problem, if any, in the
// status bar (the defaults are used then).
func (w *Window) loadConfig() {
	w.loading.Go(func() {
		conf, err := w.services.ProjectConfig()
		names := conf.SelectionNames()
		fyne.Do(func() {
			w.status.selection.Options = names
			if !slices.Contains(names, selectionName(w.selection)) {
				w.selectSelection("default")
			}
			w.status.selection.Refresh()
			if err != nil {
				w.status.notify(fmt.Sprintf("%v; using the defaults until it is fixed", err))
			}
		})
	})
}

// selectSelection makes name the active selection. Main goroutine only.
func (w *Window) selectSelection(name string) {
	if name == "default" {
		name = ""
	}
	w.selection = name
	w.status.selection.SetSelected(selectionName(name))
	w.showEvalState(w.evalStatuses())
}

// configSawFiles reads .trestle.json again when a batch touched it. Any
// goroutine.
func (w *Window) configSawFiles(events []watch.Event) {
	for _, e := range events {
		if e.Path == projconf.FileName || e.Path == watch.All {
			fyne.Do(w.loadConfig)
			return
		}
	}
}

// stopEval stops the active selection's evaluation, off the main goroutine.
func (w *Window) stopEval() {
	if w.services.Eval == nil {
		return
	}
	sel := w.selection
	w.loading.Go(func() {
		if err := w.services.Eval.Stop(sel); err != nil {
			w.Notify(err.Error())
		}
	})
}
