package main

import (
	"strings"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// TestKeyboardWorkbenchUnderXvfb drives the real window with real key
// presses: Ctrl+P, a file name and Enter open the file (as
// trestle_workbench then reports), the palette runs a command by name, and
// Ctrl+Shift+F searches; screenshots of each go to out/screenshots.
func TestKeyboardWorkbenchUnderXvfb(t *testing.T) {
	needXdotool(t)
	project := testProject(t)
	w := startWindow(t, project)
	c := w.attach(t, project, "e2e-keys")
	xdo := w.xdo(t)
	active := func() string {
		_, sc := call(t, c, "trestle_workbench", map[string]any{})
		s, _ := sc["active"].(string)
		return s
	}
	waitActive := func(want string) {
		t.Helper()
		testfix.WaitFor(t, 30*time.Second, want+" as the active tab; last seen", func() (string, bool) {
			s := active()
			return s, s == want
		}, toolPoll)
	}
	xdo("search", "--sync", "--onlyvisible", "--name", "^Trestle", "windowfocus", "--sync")

	// Go to File: a few letters of pkg/calc.go, then Enter.
	xdo("key", "ctrl+p")
	xdo("type", "--delay", "40", "calc")
	time.Sleep(300 * time.Millisecond) // let the list paint for the screenshot
	w.screenshot(t, "keys-go-to-file")
	xdo("key", "Return")
	waitActive("pkg/calc.go")

	// The palette: "problems" runs View › Problems Pane; then Go to File
	// with a line suffix opens main.go.
	xdo("key", "ctrl+shift+p")
	xdo("type", "--delay", "40", "go to file")
	time.Sleep(300 * time.Millisecond)
	w.screenshot(t, "keys-palette")
	xdo("key", "Return") // File › Go to File…
	xdo("type", "--delay", "40", "main.go:6")
	xdo("key", "Return")
	waitActive("main.go")
	testfix.WaitFor(t, 30*time.Second, "the caret at main.go:6; last seen selection", func() (map[string]any, bool) {
		_, sc := call(t, c, "trestle_selection", map[string]any{})
		line, _ := sc["start_line"].(float64)
		return sc, line == 6
	}, toolPoll)

	// Find in Files: the pattern is searched, and Escape closes nothing
	// it should not (the window still answers).
	xdo("key", "ctrl+shift+f")
	xdo("type", "--delay", "40", "Add")
	xdo("key", "Return")
	time.Sleep(500 * time.Millisecond)
	w.screenshot(t, "keys-search")
	if a := active(); a != "main.go" {
		t.Errorf("after the search the active tab is %q", a)
	}
	if strings.Contains(w.stderr.String(), "Error in Fyne call thread") {
		t.Errorf("a widget was touched off the main goroutine:\n%s", w.stderr.String())
	}
}
