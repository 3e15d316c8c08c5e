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

// evalUI is the window's evaluator part: it sends what the person
// evaluates to the project's evaluator, shows every evaluation (the
// person's and agents') in the Eval pane, offers to replay a lost
// evaluator's state, and keeps the status bar's evaluator label. It reaches
// the window's services, selection and panes through w.
type evalUI struct {
	w *Window
	// stopBuilds ends watchBuilds (eval_native.go).
	stopBuilds func()
}

// EvalDone shows an evaluation in the Eval pane (evalUI.done). Safe for
// concurrent use.
func (w *Window) EvalDone(client, selection, code string, res eval.Result, err error) {
	w.evalUI.done(client, selection, code, res, err)
}

// person is how the Eval and Run panes name what the person asked for.
const person = "you"

// byPerson evaluates what the person typed, off the main goroutine.
func (u *evalUI) byPerson(code string) {
	w := u.w
	if w.services.Eval == nil {
		w.status.notify("evaluation is not available in this window")
		return
	}
	sel := w.config.selection
	deadline := u.deadline()
	w.status.eval.SetText("evaluator: running")
	w.panes.eval.startedRunning(code)
	w.loading.Go(func() {
		res, err := w.services.Eval.Eval(context.Background(), sel, code, deadline)
		u.done(person, sel, code, res, err)
	})
}

// deadline is the person's evaluation deadline setting. Main goroutine only.
func (u *evalUI) deadline() time.Duration {
	w := u.w
	if s := w.settings.EvalDeadline; s > 0 {
		return time.Duration(s) * time.Second
	}
	return eval.DefaultTimeout
}

// replayClient names replayed inputs in the transcript.
const replayClient = "replay"

// replay evaluates again, in order, the inputs that defined a lost
// evaluator's state (the evaluator's own list, Manager.Replay: the same
// replay as trestle_eval's), each shown in the transcript, stopping at the
// first that fails. Main goroutine.
func (u *evalUI) replay(sel string, _ []string) {
	w := u.w
	if w.services.Eval == nil {
		return
	}
	if sel == "default" {
		sel = ""
	}
	deadline := u.deadline()
	w.loading.Go(func() {
		w.services.Eval.Replay(context.Background(), sel, deadline, func(code string, res eval.Result, err error) {
			u.done(replayClient, sel, code, res, err)
		})
	})
}

// done shows an evaluation in the Eval pane and, when the evaluator
// was killed, offers to replay the inputs that had defined its state (as
// the evaluator kept them: the person's and agents'); the offer goes once
// nothing is left to replay. Safe for concurrent use.
func (u *evalUI) done(client, selection, code string, res eval.Result, err error) {
	w := u.w
	lines := transcript(client, code, res, err)
	statuses := u.statuses()
	sel := selectionName(selection)
	lost := res.StateLost || errors.Is(err, eval.ErrDeadline) || errors.Is(err, eval.ErrStopped) || errors.Is(err, eval.ErrDied)
	remaining := len(res.Lost)
	if w.services.Eval != nil {
		remaining = len(w.services.Eval.Lost(selection))
	}
	w.onMain(func() {
		if client == person {
			w.panes.eval.doneRunning()
		}
		w.panes.eval.transcript.append(lines...)
		u.showState(statuses)
		switch {
		case lost:
			w.panes.eval.offerReplay(sel, res.Lost)
		case remaining == 0 && w.panes.eval.pending.sel == sel:
			w.panes.eval.hideReplay()
		}
	})
}

// statuses reads the evaluators' states; safe on any goroutine.
func (u *evalUI) statuses() []eval.WorkerStatus {
	w := u.w
	if w.services.Eval == nil {
		return nil
	}
	return w.services.Eval.Status()
}

// showState shows the active selection's evaluator state in the status
// bar. Main goroutine only (it reads the active selection).
func (u *evalUI) showState(statuses []eval.WorkerStatus) {
	w := u.w
	state := "off"
	if w.services.Eval != nil {
		state = string(eval.StateStopped)
	}
	for _, st := range statuses {
		if st.Selection == selectionName(w.config.selection) {
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

// restart restarts the active selection's evaluator.
func (u *evalUI) restart() {
	w := u.w
	if w.services.Eval == nil {
		return
	}
	sel := w.config.selection
	w.loading.Go(func() {
		if err := w.services.Eval.Restart(sel); err != nil {
			w.Notify(err.Error())
			return
		}
		w.Notify("Restarted the " + selectionName(sel) + " evaluator.")
		statuses := u.statuses()
		w.onMain(func() {
			w.panes.eval.hideReplay()
			u.showState(statuses)
		})
	})
}

// stop stops the active selection's evaluation, off the main goroutine.
func (u *evalUI) stop() {
	w := u.w
	if w.services.Eval == nil {
		return
	}
	sel := w.config.selection
	w.loading.Go(func() {
		if err := w.services.Eval.Stop(sel); err != nil {
			w.Notify(err.Error())
		}
	})
}
