package ui

import (
	"context"
	"fmt"
	"sync"
	"time"

	"trestle/app/eval"
	"trestle/app/eval/workerbuild"
)

// buildFlushEvery bounds how often a native evaluator build's progress
// reaches the status bar: a build reports every package it compiles.
const buildFlushEvery = 250 * time.Millisecond

// watchBuilds shows the progress of the selections' native evaluator
// builds in the status bar, and a failed build's problems in the Problems
// pane. Main goroutine only; stopWatching ends it.
func (u *evalUI) watchBuilds() {
	w := u.w
	if w.services.Eval == nil || u.stopBuilds != nil {
		return
	}
	var mu sync.Mutex
	var last time.Time
	u.stopBuilds = w.services.Eval.Subscribe(func(e eval.BuildEvent) {
		final := e.Phase == workerbuild.PhaseReady || e.Phase == workerbuild.PhaseFailed
		mu.Lock()
		if !final && time.Since(last) < buildFlushEvery {
			mu.Unlock()
			return
		}
		last = time.Now()
		mu.Unlock()
		text := buildStatusText(e)
		var statuses []eval.WorkerStatus
		if final { // the build's outcome in the evaluator's state: ready, partial or failed
			statuses = u.statuses()
		}
		probs := make([]Problem, 0, len(e.Problems))
		for _, p := range e.Problems {
			probs = append(probs, Problem{Path: p.Path, Line: p.Line, Col: p.Col, Message: p.Message})
		}
		w.onMain(func() {
			if e.Selection != selectionName(w.config.selection) {
				return
			}
			w.status.eval.SetText(text)
			if final {
				u.showState(statuses)
			}
			if e.Phase == workerbuild.PhaseFailed {
				if len(probs) > 0 {
					w.panes.problems.set(probs)
				}
				w.status.notify("The native evaluator did not build; the previous evaluator keeps serving. " + e.Message)
			}
		})
	})
}

// buildStatusText is the status bar's evaluator label during a build.
func buildStatusText(e eval.BuildEvent) string { return "evaluator: " + e.Describe() }

// showPackages lists in the Eval pane which packages the active
// selection's evaluator links natively and which it interprets, and why.
func (u *evalUI) showPackages() {
	w := u.w
	if w.services.Eval == nil {
		return
	}
	sel := w.config.selection
	w.loading.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		pkgs, err := w.services.Eval.Packages(ctx, sel)
		lines := []string{"# packages of the " + selectionName(sel) + " evaluator (the standard library is native)"}
		if err != nil {
			lines = append(lines, "  "+err.Error())
		}
		for _, p := range pkgs {
			lines = append(lines, fmt.Sprintf("  %-11s %s: %s", p.Mode, p.Path, p.Reason))
		}
		w.onMain(func() { w.panes.eval.transcript.append(noteLines(lines)...) })
	})
}

// noteLines are lines for the transcript, dimmed as notes.
func noteLines(lines []string) []evalLine {
	out := make([]evalLine, len(lines))
	for i, l := range lines {
		out[i] = evalLine{text: l, kind: lineNote}
	}
	return out
}

// replayLost is the menu's Replay: the pane's, for the active selection.
// Main goroutine.
func (u *evalUI) replayLost() { u.replay(u.w.config.selection, nil) }
