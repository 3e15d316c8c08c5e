package ui

import (
	"fmt"
	"slices"
	"trestle/app/projconf"
	"trestle/app/watch"

	"fyne.io/fyne/v2"
)

// .trestle.json in the window: its selections fill the status bar's
// picker, and an edit on disk reads it again.

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
