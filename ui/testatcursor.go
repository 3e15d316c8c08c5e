package ui

import (
	"strings"

	"trestle/app/testfunc"
)

// testAtCursor runs the test, benchmark, fuzz seed corpus or example under
// the active editor's caret (Ctrl+Shift+T); elsewhere it runs every test.
// It must be called on the main goroutine.
func (w *Window) testAtCursor() {
	args, name := w.testAtCursorArgs()
	if name != "" {
		w.status.notify("Running " + name + "…")
	}
	w.runByPerson("test", args...)
}

// testAtCursorArgs are the go test arguments that run just the function
// under the caret and its name, read from the text the person sees
// (unsaved edits included), or nil and "" when the caret is in none. It
// must be called on the main goroutine.
func (w *Window) testAtCursorArgs() (args []string, name string) {
	rel, e := w.tabs.active(), w.tabs.activeEditor()
	if e == nil || !strings.HasSuffix(rel, "_test.go") {
		return nil, ""
	}
	fn, ok := testfunc.At(rel, []byte(e.Buffer().Text()), e.Caret().Line+1)
	if !ok {
		return nil, ""
	}
	return testfunc.Args(rel, fn), fn.Name
}
