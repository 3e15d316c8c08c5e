package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestAskDialogShowsTheEnvironmentE2E is issue 11 item 8 against the real
// window under Xvfb: a selection whose CC is a shell command, asked under
// the default policy (ask). The dialog names the environment (see the
// screenshot ask-environment.png); no answer denies, and the command
// never runs.
func TestAskDialogShowsTheEnvironmentE2E(t *testing.T) {
	project := testProject(t)
	marker := filepath.Join(t.TempDir(), "pwned")
	conf := `{"selections": {"cgo": {"env": {"CGO_ENABLED": "1", "CC": "sh -c 'touch ` + marker + `' #"}}},
		"tasks": {"cbuild": {"command": ["go", "build", "./..."]}}}`
	os.WriteFile(filepath.Join(project, ".trestle.json"), []byte(conf), 0o644)
	os.WriteFile(filepath.Join(project, "pkg", "c.go"), []byte("package pkg\n\n// #include <stdio.h>\nimport \"C\"\n"), 0o644)
	w := startWindowArgs(t, project, "--trust") // its .trestle.json is used, so the dialog must show it
	c := w.attach(t, project, "e2e-ask")
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "trestle_run"
		req.Params.Arguments = map[string]any{"task": "cbuild", "selection": "cgo"}
		res, _ := c.CallTool(ctx, req)
		done <- res
	}()
	time.Sleep(3 * time.Second) // let the dialog paint for the screenshot; nothing waits on it
	w.screenshot(t, "ask-environment")
	select {
	case res := <-done:
		if res != nil && !res.IsError {
			t.Fatalf("the run went ahead without an answer: %s", resultText(res))
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the call did not end after its client gave up")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the selection's CC ran without the person's answer")
	}
	if strings.Contains(w.stderr.String(), "panic") {
		t.Fatalf("window: %s", w.stderr.String())
	}
}
