package ui

import (
	"strings"

	"trestle/app/testfunc"
)

// testAtCursor runs the test, benchmark, fuzz seed corpus or example under
// the active editor's caret (Ctrl+Shift+T), reading the text the person
// sees, unsaved edits included; elsewhere it runs every test. It must be
// called on the main goroutine.
func (w *Window) testAtCursor() {
	rel, e := w.tabs.active(), w.tabs.activeEditor()
	if e != nil && strings.HasSuffix(rel, "_test.go") {
		if fn, ok := testfunc.At(rel, []byte(e.buf.Text()), e.caret.Line+1); ok {
			w.status.notify("Running " + fn.Name + " in " + rel + "…")
			w.runByPerson("test", testfunc.Args(rel, fn)...)
			return
		}
	}
	w.runByPerson("test")
}
