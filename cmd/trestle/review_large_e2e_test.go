package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// TestLargeProposalKeepsUIAnswering is issue 20's "a ~5,000-line proposal
// makes the window unresponsive": 27 of 30 UI calls answered busy over 90
// s, apply failed "the window did not answer within 2s", and 2,500 wheel
// events froze the window for 12 minutes. Here an agent proposes 800
// hunks over an 8,000-line file and a new 5,000-line file; the review
// shows it, the person's wheel scrolls through it, and trestle_workbench
// (a bounded call on the UI thread) keeps answering within its bound
// throughout; then the person's Apply writes it.
func TestLargeProposalKeepsUIAnswering(t *testing.T) {
	needXdotool(t)
	project := testProject(t)
	var big, gen strings.Builder
	for i := 1; i <= 8000; i++ {
		fmt.Fprintf(&big, "line %d\n", i)
	}
	if err := os.WriteFile(filepath.Join(project, "big.txt"), []byte(big.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var edits []any
	for i := 5; i <= 8000; i += 10 {
		edits = append(edits, map[string]any{"old_text": fmt.Sprintf("line %d\n", i), "new_text": fmt.Sprintf("line %d, changed\n", i)})
	}
	gen.WriteString("package main\n\n")
	for i := range 5000 {
		fmt.Fprintf(&gen, "func f%d() int { return %d } // a generated line, long enough to wrap in a narrow review\n", i, i)
	}

	w := startWindow(t, project)
	agent := w.attach(t, project, "large-agent")
	testfix.WaitFor(t, time.Minute, "an answer from the window", func() (string, bool) { // the window has started
		res, _ := call(t, agent, "trestle_workbench", map[string]any{})
		return resultText(res), !res.IsError
	}, testfix.Every(200*time.Millisecond))
	probe := startUIProbe(w.attach(t, project, "ui-probe"))
	defer func() {
		n, busy, p50, worst := probe.finish()
		t.Logf("UI probe: %d trestle_workbench calls, %d answered busy, p50 %v, worst %v (bound %v)", n, busy, p50, worst, uiBound)
	}()
	res, sc := call(t, agent, "trestle_change_set_propose", map[string]any{
		"title": "Large: 800 hunks and a 5,000-line file",
		"changes": []any{
			map[string]any{"action": "edit", "path": "big.txt", "edits": edits},
			map[string]any{"action": "create", "path": "gen.go", "content": gen.String()},
		},
	})
	if res.IsError {
		t.Fatalf("propose: %s", resultText(res))
	}
	id := sc["id"].(string)
	time.Sleep(3 * time.Second) // the review opens and draws; the probe keeps calling meanwhile
	probe.check(t)
	t.Logf("screenshot: %s", w.screenshot(t, "review-large"))

	// 1,000 wheel steps over the diff, 100 a second for 10 s: a fast
	// flick that does not stop.
	xdo := w.xdo(t)
	width, height := windowSize(t, w)
	xdo("mousemove", "--sync", strconv.Itoa(width*7/10), strconv.Itoa(height*2/5))
	xdo("click", "--repeat", "1000", "--delay", "10", "5")
	probe.check(t)
	t.Logf("screenshot: %s", w.screenshot(t, "review-large-scrolled"))

	applyInWindow(t, agent, id)
	res, sc = call(t, agent, "trestle_change_set", map[string]any{"id": id, "wait_seconds": 60})
	if res.IsError || sc["change_set_state"] != "applied" {
		t.Fatalf("the agent reads: %s", resultText(res))
	}
	if data, _ := os.ReadFile(filepath.Join(project, "big.txt")); !strings.Contains(string(data), "line 7995, changed\n") {
		t.Error("the last hunk of big.txt was not applied")
	}
	probe.check(t)
}

// windowSize is the Trestle window's width and height on w's display.
func windowSize(t *testing.T, w *window) (width, height int) {
	t.Helper()
	geom := exec.Command("xdotool", "search", "--onlyvisible", "--name", "^Trestle", "getwindowgeometry", "--shell")
	geom.Env = append(os.Environ(), "DISPLAY="+w.display)
	out, err := geom.Output()
	if err != nil {
		t.Fatalf("xdotool getwindowgeometry: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "WIDTH="); ok {
			width, _ = strconv.Atoi(v)
		}
		if v, ok := strings.CutPrefix(line, "HEIGHT="); ok {
			height, _ = strconv.Atoi(v)
		}
	}
	return width, height
}
