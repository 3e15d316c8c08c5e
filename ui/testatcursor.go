package ui

import (
	"strings"

	"trestle/app/testfunc"
)

// testAtCursor runs the test, benchmark, fuzz seed corpus or example under
// the active editor's caret (Ctrl+Shift+T); elsewhere it runs every test.
// It must be called on the main goroutine.
//
// A test file that does not parse runs nothing: its package cannot build,
// and the caret's test may not be found, where quietly testing everything
// instead would mislead; the status bar says where the file breaks.
func (r *runUI) testAtCursor() {
	w := r.w
	rel := w.tabs.active()
	if e := w.tabs.activeEditor(); e != nil && strings.HasSuffix(rel, "_test.go") {
		if err := testfunc.SyntaxError(rel, []byte(e.Buffer().Text())); err != nil {
			w.status.notify("Test at Cursor: " + err.Error() + ". Fix it to run the test under the caret, or use Run ▸ Test All.")
			return
		}
	}
	args, name := r.testAtCursorArgs()
	switch {
	case name != "":
		w.status.notify("Running " + name + "…")
	case strings.HasSuffix(rel, "_test.go"):
		w.status.notify("Running every test: the caret is in no test function")
	default:
		w.status.notify("Running every test: the active tab is no _test.go file")
	}
	r.byPerson("test", args...)
}

// testAtCursorArgs are the go test arguments that run just the function
// under the caret and its name, read from the text the person sees
// (unsaved edits included), or nil and "" when the caret is in none. It
// must be called on the main goroutine.
func (r *runUI) testAtCursorArgs() (args []string, name string) {
	rel, e := r.w.tabs.active(), r.w.tabs.activeEditor()
	if e == nil || !strings.HasSuffix(rel, "_test.go") {
		return nil, ""
	}
	fn, ok := testfunc.At(rel, []byte(e.Buffer().Text()), e.Caret().Line+1)
	if !ok {
		return nil, ""
	}
	return testfunc.Args(rel, fn), fn.Name
}
