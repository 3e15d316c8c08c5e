package main

import (
	"image"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"trestle/internal/testfix"
)

// TestMenuKeysInTheRealWindow: Alt+R opens the Run menu and F10 the first
// menu of the real window under Xvfb, typed with xdotool with the keyboard
// in an editor; the arrows and Enter then pick an item (Fyne's own menu
// bar opens only on a lone Alt).
func TestMenuKeysInTheRealWindow(t *testing.T) {
	needXdotool(t)
	project := testProject(t)
	w := startWindow(t, project)
	c := w.attach(t, project, "e2e-menu-keys")
	xdo := w.xdo(t)
	xdo("search", "--sync", "--onlyvisible", "--name", "^Trestle", "windowfocus", "--sync")
	testfix.WaitFor(t, time.Minute, "trestle_open main.go past busy", func() (string, bool) {
		res, _ := call(t, c, "trestle_open", map[string]any{"path": "main.go", "line": 6})
		if res.IsError && !strings.HasPrefix(resultText(res), "busy") { // busy: the window is starting on a loaded machine
			t.Fatalf("trestle_open: %s", resultText(res))
		}
		return resultText(res), !res.IsError
	}, toolPoll)
	waitActiveTab(t, w, c, "main.go")
	time.Sleep(500 * time.Millisecond) // let the frame paint
	menus := image.Rect(0, 0, 700, 400)

	base := w.screenshot(t, "menu-keys-before")
	xdo("key", "alt+r")
	waitChanged(t, w, base, "menu-keys-run-menu", menus, "the Run menu after Alt+R")
	xdo("key", "Down", "Return") // Build
	waitRunOf(t, w, c, "build")

	time.Sleep(500 * time.Millisecond) // the menu closes
	base = w.screenshot(t, "menu-keys-closed")
	xdo("key", "F10")
	waitChanged(t, w, base, "menu-keys-f10", menus, "the File menu after F10")
	xdo("key", "Right", "Right", "Right") // Edit, View, Run
	time.Sleep(time.Second)               // let the frame paint
	w.screenshot(t, "menu-keys-f10-run")
	xdo("key", "Down", "Down", "Down", "Down", "Return") // Build, Test at Cursor, Test All, Vet
	waitRunOf(t, w, c, "vet")
	time.Sleep(time.Second) // the Run pane shows the end
	w.screenshot(t, "menu-keys-vet")
}

// waitRunOf waits until the latest run is of task name and has ended.
func waitRunOf(t *testing.T, w *window, c *client.Client, name string) {
	t.Helper()
	testfix.WaitFor(t, 2*time.Minute, "the latest run of "+name+", ended; last seen task and state", func() ([2]any, bool) {
		_, sc := call(t, c, "trestle_run_status", nil)
		return [2]any{sc["task"], sc["run_state"]}, sc["task"] == name && sc["run_state"] != "running"
	}, testfix.Every(200*time.Millisecond))
}
