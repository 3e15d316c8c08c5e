package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// TestHeadlessProposalIsAppliedInTheWindow: an agent on the headless
// server proposes a change; it appears in the running window (through the
// shared store) and is applied there through the Change Sets pane's Apply;
// the headless agent then learns the decision.
func TestHeadlessProposalIsAppliedInTheWindow(t *testing.T) {
	project := testProject(t)
	w := startWindow(t, project)
	headless := startClient(t, []string{"TRESTLE_CONFIG_DIR=" + w.config, "DISPLAY="}, "headless-agent", "--mcp", project)
	res, sc := call(t, headless, "trestle_change_set_propose", map[string]any{
		"title": "Greet the change set",
		"changes": []any{map[string]any{"action": "edit", "path": "main.go",
			"edits": []any{map[string]any{"old_text": "hello from e2e", "new_text": "hello from a change set"}}}},
	})
	if res.IsError {
		t.Fatalf("propose: %s", resultText(res))
	}
	id := sc["id"].(string)

	window := w.attach(t, project, "e2e-reviewer")
	// The window's Change Sets pane shows the proposal once the store's
	// change reaches it: until then Apply finds nothing ("none").
	testfix.Wait(t, 15*time.Second, "the window applies the proposal", func() bool {
		res, sc = call(t, window, "trestle_debug_apply", map[string]any{"id": id})
		if res.IsError && sc["state"] != "none" {
			t.Fatalf("apply in the window: %s", resultText(res))
		}
		return !res.IsError
	})
	res, sc = call(t, headless, "trestle_change_set", map[string]any{"id": id, "wait_seconds": 20})
	if res.IsError || sc["change_set_state"] != "applied" {
		t.Fatalf("decision seen headless: %s", resultText(res))
	}
	data, err := os.ReadFile(filepath.Join(project, "main.go"))
	if err != nil || !strings.Contains(string(data), "hello from a change set") {
		t.Fatalf("main.go after apply: %q %v", data, err)
	}
	// The screenshot once the window no longer lists the set as pending.
	testfix.WaitFor(t, 30*time.Second, "no pending change set in the window; last seen", func() (any, bool) {
		_, sc := call(t, window, "trestle_workbench", map[string]any{})
		pending, _ := sc["pending_change_sets"].([]any)
		return pending, len(pending) == 0
	}, toolPoll)
	t.Logf("screenshot: %s", w.screenshot(t, "change-sets"))
}
