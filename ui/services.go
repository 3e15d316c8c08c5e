package ui

import "trestle/app/services"

// The window's link to the project's services (app/services): gopls, the
// evaluators, the tasks and .trestle.json, made by cmd/trestle and handed
// to New.

// connectServices links the editors to gopls and the Eval pane and the Run
// menu to the project's evaluator and tasks (New's fourth step). Main
// goroutine only.
func (w *Window) connectServices(s services.Services) {
	w.services = s
	if s.LSP != nil {
		w.gopls.start(s.LSP)
	}
	w.panes.eval.onSubmit = w.evalUI.byPerson
	w.panes.eval.onStop = w.evalUI.stop
	w.panes.eval.onReplay = w.evalUI.replay
	w.status.selection.OnChanged = func(name string) {
		if name != selectionName(w.config.selection) {
			w.config.setSelection(name)
		}
	}
	w.trust.connect(s.Trust) // before loadConfig, whose goroutine comes back to the main one
	w.config.load()
	w.evalUI.watchBuilds()
}
