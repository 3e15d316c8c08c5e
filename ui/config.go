package ui

import (
	"fmt"
	"slices"
	"trestle/app/projconf"
	"trestle/app/watch"
)

// configUI is the window's .trestle.json part: its selections fill the
// status bar's picker, the one picked is the active selection that the
// evaluator and the runs use, and an edit on disk reads the file again.
// It reaches the window's services and status bar through w. Main
// goroutine only, but for sawFiles.
type configUI struct {
	w *Window
	// selection is the active .trestle.json selection ("" for default).
	selection string
}

// load reads .trestle.json off the main goroutine and shows its
// selections in the status bar's picker, and its problem, if any, in the
// status bar (the defaults are used then).
func (c *configUI) load() { c.loadThen(nil) }

// loadThen is load, then calls then (when set) on the main goroutine once
// the window shows the configuration.
func (c *configUI) loadThen(then func()) {
	w := c.w
	w.loading.Go(func() {
		conf, err := w.services.ProjectConfig()
		names := conf.SelectionNames()
		w.onMain(func() {
			w.status.selection.Options = names
			if !slices.Contains(names, selectionName(c.selection)) {
				c.setSelection("default")
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

// setSelection makes name the active selection. Main goroutine only.
func (c *configUI) setSelection(name string) {
	w := c.w
	if name == "default" {
		name = ""
	}
	c.selection = name
	w.status.selection.SetSelected(selectionName(name))
	w.evalUI.showState(w.evalUI.statuses())
}

// sawFiles reads .trestle.json again when a batch touched it. Any
// goroutine.
func (c *configUI) sawFiles(events []watch.Event) {
	for _, e := range events {
		if e.Path == projconf.FileName || e.Path == watch.All {
			c.w.onMain(c.load)
			return
		}
	}
}
