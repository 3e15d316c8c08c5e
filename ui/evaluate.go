package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"trestle/app/eval"
)

// Evaluations in the window: what the person evaluates (Ctrl+Enter, the
// Eval line) and what agents evaluate both show in the Eval pane, and the
// status bar shows the active selection's evaluator.

// person is how the Eval and Run panes name what the person asked for.
const person = "you"

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
	w.onMain(func() {
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
			if st.Activity != "" {
				state += " (" + st.Activity + ")"
			}
			if st.Native != "" {
				state += " · " + st.Native
			}
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
		w.onMain(func() {
			w.panes.eval.hideReplay()
			w.showEvalState(statuses)
		})
	})
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
