package ui

import (
	"fmt"
	"slices"
	"trestle/app/projconf"
	"trestle/app/watch"
)

// .trestle.json in the window: its selections fill the status bar's
// picker, and an edit on disk reads it again.

// loadConfig reads .trestle.json off the main goroutine and shows its
// selections in the status bar's picker, and its problem, if any, in the
// status bar (the defaults are used then).
func (w *Window) loadConfig() { w.loadConfigThen(nil) }

// loadConfigThen is loadConfig, then calls then (when set) on the main
// goroutine once the window shows the configuration.
func (w *Window) loadConfigThen(then func()) {
	w.loading.Go(func() {
		conf, err := w.services.ProjectConfig()
		names := conf.SelectionNames()
		w.onMain(func() {
			w.status.selection.Options = names
			if !slices.Contains(names, selectionName(w.selection)) {
				w.selectSelection("default")
			}
			w.status.selection.Refresh()
			if err != nil {
				w.status.notify(fmt.Sprintf("%v; using the defaults until it is fixed", err))
			}
			if then != nil {
				then()
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
	w.evalUI.showState(w.evalUI.statuses())
}

// configSawFiles reads .trestle.json again when a batch touched it. Any
// goroutine.
func (w *Window) configSawFiles(events []watch.Event) {
	for _, e := range events {
		if e.Path == projconf.FileName || e.Path == watch.All {
			w.onMain(w.loadConfig)
			return
		}
	}
}
