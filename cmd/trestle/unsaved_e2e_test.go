package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestAgentBuildSeesUnsavedEditsE2E: the person types a type error into
// main.go in the real window (xdotool under Xvfb) and does not save; an
// agent's trestle_run of build through --mcp-attach saves it first, says
// so, and fails on the error instead of passing on the disk's old text.
func TestAgentBuildSeesUnsavedEditsE2E(t *testing.T) {
	needXdotool(t)
	project := testProject(t)
	w := startWindowArgs(t, project, "--agent-policy", "allow")
	c := w.attach(t, project, "e2e-unsaved")
	xdo := w.xdo(t)
	xdo("search", "--sync", "--onlyvisible", "--name", "^Trestle", "windowfocus", "--sync")
	if res, _ := call(t, c, "trestle_open", map[string]any{"path": "main.go", "line": 8}); res.IsError {
		t.Fatalf("open: %s", resultText(res))
	}
	xdo("type", "--delay", "30", `var _ int = "not an int"`)
	waitUnsaved(t, c, "main.go", "not an int")

	res, sc := call(t, c, "trestle_run", map[string]any{"task": "build", "wait_seconds": 120})
	text := resultText(res)
	if sc["run_state"] == "passed" || !res.IsError {
		t.Fatalf("go build passed on the disk's text under an unsaved type error:\n%s", text)
	}
	if !strings.HasPrefix(text, "Saved 1 unsaved file(s) before the run, as the person's setting says: main.go.") {
		t.Errorf("the result does not lead with what was saved:\n%s", text)
	}
	// The save before the build formats the file (format on save), which
	// may move the typed line: the error is where the saved file has it.
	data, _ := os.ReadFile(project + "/main.go")
	line := slices.IndexFunc(strings.Split(string(data), "\n"), func(l string) bool { return strings.Contains(l, "not an int") }) + 1
	if line == 0 {
		t.Fatal("main.go on disk lacks the saved edit")
	}
	if at := fmt.Sprintf("main.go:%d:", line); !strings.Contains(text, at) || !strings.Contains(text, "not an int") {
		t.Errorf("the result lacks the type error at %s:\n%s", at, text)
	}
}
