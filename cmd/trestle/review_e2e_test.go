package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"trestle/internal/testfix"
)

// TestReviewInTheWindow: an agent attached through --mcp-attach proposes a
// three-file change; it opens for review in a tab of the editor area
// (screenshot review-tab) and the person's Apply writes it. Then the
// person types into main.go without saving and the agent proposes on that
// unsaved text: Apply asks first (screenshot review-unsaved) and writes
// nothing, so the person's keystrokes never reach the disk behind their
// back, and the agent reads the set still pending.
func TestReviewInTheWindow(t *testing.T) {
	project := testProject(t)
	w := startWindow(t, project)
	c := w.attach(t, project, "e2e-agent")
	res, sc := call(t, c, "trestle_change_set_propose", map[string]any{
		"title":       "Subtract, with a test",
		"description": "Adds `Sub` to pkg/calc.go, its test in **calc_test.go**, and a README.",
		"changes": []any{
			map[string]any{"action": "edit", "path": "pkg/calc.go", "edits": []any{map[string]any{
				"old_text": "func Add(a, b int) int { return a + b }\n",
				"new_text": "func Add(a, b int) int { return a + b }\n\n// Sub subtracts b from a.\nfunc Sub(a, b int) int { return a - b }\n"}}},
			map[string]any{"action": "create", "path": "pkg/calc_test.go", "content": "package pkg\n\nimport \"testing\"\n\n" +
				"func TestSub(t *testing.T) {\n\tif got := Sub(3, 1); got != 2 {\n\t\tt.Fatalf(\"Sub(3, 1) = %d, want 2\", got)\n\t}\n}\n"},
			map[string]any{"action": "create", "path": "README.md", "content": "# e2e\n\nA calculator: `Add` and `Sub`, with a test that has a rather long line to show that the review wraps what does not fit instead of cutting it off at the edge.\n"},
		},
	})
	if res.IsError {
		t.Fatalf("propose: %s", resultText(res))
	}
	id := sc["id"].(string)
	time.Sleep(1500 * time.Millisecond) // let the review tab paint for the screenshot; nothing waits on it
	t.Logf("screenshot: %s", w.screenshot(t, "review-tab"))

	applyInWindow(t, c, id)
	res, sc = call(t, c, "trestle_change_set", map[string]any{"id": id, "wait_seconds": 20})
	if res.IsError || sc["change_set_state"] != "applied" {
		t.Fatalf("the agent reads: %s", resultText(res))
	}
	for _, name := range []string{"pkg/calc_test.go", "README.md"} {
		if _, err := os.Stat(filepath.Join(project, name)); err != nil {
			t.Fatalf("%s was not created: %v", name, err)
		}
	}
	time.Sleep(500 * time.Millisecond)
	t.Logf("screenshot: %s", w.screenshot(t, "review-applied"))

	// The person types into main.go and does not save.
	if res, _ := call(t, c, "trestle_open", map[string]any{"path": "main.go", "line": 6}); res.IsError {
		t.Fatalf("trestle_open: %s", resultText(res))
	}
	xdo := w.xdo(t)
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Skip("xdotool is not installed; run scripts/deps.sh --test")
	}
	xdo("search", "--sync", "--onlyvisible", "--name", "^Trestle", "windowfocus", "--sync")
	xdo("key", "End")
	xdo("type", "--delay", "30", " // mine")
	testfix.WaitFor(t, 30*time.Second, "the typed text in the editor", func() (string, bool) {
		res, _ := call(t, c, "trestle_read", map[string]any{"path": "main.go"})
		read := resultText(res) // trestle_read answers in text only
		text, _ := readText(read)
		return read, strings.Contains(text, "// mine")
	}, toolPoll)
	res, sc = call(t, c, "trestle_change_set_propose", map[string]any{
		"title": "Greet on the unsaved text",
		"changes": []any{map[string]any{"action": "edit", "path": "main.go",
			"edits": []any{map[string]any{"old_text": "hello from e2e", "new_text": "hello from the review"}}}},
	})
	if res.IsError {
		t.Fatalf("propose: %s", resultText(res))
	}
	dirtyID := sc["id"].(string)
	applyInWindow(t, c, dirtyID)
	time.Sleep(1500 * time.Millisecond) // nothing may be written; give a wrong write the time to happen
	t.Logf("screenshot: %s", w.screenshot(t, "review-unsaved"))
	if data, _ := os.ReadFile(filepath.Join(project, "main.go")); strings.Contains(string(data), "// mine") || strings.Contains(string(data), "from the review") {
		t.Fatalf("the apply wrote the person's unsaved text to disk:\n%s", data)
	}
	res, sc = call(t, c, "trestle_change_set", map[string]any{"id": dirtyID})
	if res.IsError || sc["change_set_state"] != "pending" {
		t.Fatalf("the agent reads: %s", resultText(res))
	}

	// Escape cancels; main.go's tab, brought forward, shows the proposal
	// strip, and its
	// Show Inline (the strip's first button, at the right of the tab's top)
	// shows the hunk in place.
	xdo("key", "Escape")
	if res, _ := call(t, c, "trestle_open", map[string]any{"path": "main.go"}); res.IsError {
		t.Fatalf("trestle_open: %s", resultText(res))
	}
	time.Sleep(500 * time.Millisecond)
	t.Logf("screenshot: %s", w.screenshot(t, "review-strip"))
	geom := exec.Command("xdotool", "search", "--onlyvisible", "--name", "^Trestle", "getwindowgeometry", "--shell")
	geom.Env = append(os.Environ(), "DISPLAY="+w.display)
	out, err := geom.Output()
	if err != nil {
		t.Fatalf("xdotool getwindowgeometry: %v", err)
	}
	width := 0
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "WIDTH="); ok {
			width, _ = strconv.Atoi(v)
		}
	}
	xdo("mousemove", "--sync", strconv.Itoa(width-165), "89", "click", "1") // below the menu and tab bars
	time.Sleep(1 * time.Second)
	t.Logf("screenshot: %s", w.screenshot(t, "review-inline"))
	if data, _ := os.ReadFile(filepath.Join(project, "main.go")); strings.Contains(string(data), "// mine") {
		t.Fatalf("the person's unsaved text reached the disk:\n%s", data)
	}
}

// applyInWindow presses Apply on change set id in the window, as a
// person's click would, once the window lists it ("none" until then) and
// answers (busy on a loaded machine).
func applyInWindow(t *testing.T, c *client.Client, id string) {
	t.Helper()
	testfix.WaitFor(t, 30*time.Second, "change set "+id+" applied in the window", func() (string, bool) {
		res, sc := call(t, c, "trestle_debug_apply", map[string]any{"id": id})
		if res.IsError && sc["state"] != "none" && sc["state"] != "busy" {
			t.Fatalf("apply in the window: %s", resultText(res))
		}
		return resultText(res), !res.IsError
	}, toolPoll)
}
