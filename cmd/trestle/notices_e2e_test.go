package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// TestNoticesAreToastsE2E: four trestle_notify calls against the real
// window under Xvfb show toasts (screenshot notices-toasts.png), the last
// naming a change set with Review; the person's typing still reaches the
// editor while they show; the bell lists them all (notices-list.png); and
// the toasts go by themselves (notices-gone.png), their timers coming back
// on Fyne's main goroutine (the harness fails on Fyne's thread error).
func TestNoticesAreToastsE2E(t *testing.T) {
	needXdotool(t)
	project := testProject(t)
	w := startWindow(t, project)
	c := w.attach(t, project, "e2e-notices")
	xdo := w.xdo(t)
	xdo("search", "--sync", "--onlyvisible", "--name", "^Trestle", "windowfocus", "--sync")
	if res, _ := call(t, c, "trestle_open", map[string]any{"path": "main.go", "line": 1}); res.IsError {
		t.Fatalf("open: %s", resultText(res))
	}
	res, sc := call(t, c, "trestle_change_set_propose", map[string]any{
		"title": "Greet louder",
		"changes": []any{map[string]any{"action": "edit", "path": "main.go",
			"edits": []any{map[string]any{"old_text": "hello from e2e", "new_text": "HELLO from e2e"}}}},
	})
	if res.IsError {
		t.Fatalf("propose: %s", resultText(res))
	}
	id := sc["id"].(string)
	for _, msg := range []string{
		"Starting on the failing test in pkg/calc.go.",
		"The tests pass again; looking at vet next.",
		"go vet is clean.",
		"Proposed " + id + ": it makes the greeting louder. Please review.",
	} {
		if res, sc := call(t, c, "trestle_notify", map[string]any{"message": msg}); res.IsError || sc["state"] != "done" {
			t.Fatalf("notify: %s", resultText(res))
		}
	}

	// Typing goes on under the toasts: no dialog took the keyboard.
	xdo("type", "--delay", "30", "// typed under toasts")
	testfix.WaitFor(t, 30*time.Second, "the typing in the editor while the toasts showed", func() (string, bool) {
		res, _ := call(t, c, "trestle_read", map[string]any{"path": "main.go"})
		return resultText(res), strings.Contains(resultText(res), "// typed under toasts")
	}, toolPoll)
	time.Sleep(500 * time.Millisecond) // let the toasts paint for the screenshot; nothing waits on it
	w.screenshot(t, "notices-toasts")

	time.Sleep(7 * time.Second) // past toastLifetime: the toasts go by themselves
	w.screenshot(t, "notices-gone")

	// The bell is the status bar's last item, in the window's bottom right;
	// a click there lists every notice, newest first.
	geo := xdo("search", "--onlyvisible", "--name", "^Trestle", "getwindowgeometry")
	m := regexp.MustCompile(`Position: (\d+),(\d+).*\n.*Geometry: (\d+)x(\d+)`).FindStringSubmatch(geo)
	if m == nil {
		t.Fatalf("window geometry %q", geo)
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	x, y := n(m[1])+n(m[3])-24, n(m[2])+n(m[4])-18
	xdo("mousemove", strconv.Itoa(x), strconv.Itoa(y), "click", "1")
	time.Sleep(500 * time.Millisecond)
	w.screenshot(t, "notices-list")
	if res, _ := call(t, c, "trestle_workbench", map[string]any{}); res.IsError {
		t.Fatalf("the window stopped answering: %s", resultText(res))
	}
}
