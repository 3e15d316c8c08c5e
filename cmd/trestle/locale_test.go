package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestNothingButTrestleOnStderr runs the real binary under the C.UTF-8
// locale of many containers (as LANG, and as LC_ALL) and checks that
// nothing reaches stderr: Fyne used to log "Fyne error: Error parsing user
// locale C" from its init, on every invocation, which clients log as a
// failure.
func TestNothingButTrestleOnStderr(t *testing.T) {
	bin := trestleBin(t)
	project := testProject(t)
	invocations := [][]string{{"--help"}, {"mcp-config"}, {"mcp-config", "--client", "claude"}, {"--mcp", project}, {"--list"}}
	for _, locale := range []string{"LANG=C.UTF-8", "LC_ALL=C.UTF-8", "LANG=C.utf8", "LANG=POSIX.UTF-8"} {
		for _, args := range invocations {
			t.Run(locale+" "+strings.Join(args, " "), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				cmd := exec.CommandContext(ctx, bin, args...)
				cmd.Env = append(cleanLocaleEnv(), locale, "TRESTLE_CONFIG_DIR="+t.TempDir(), "DISPLAY=")
				cmd.Stdin = nil // closed: --mcp ends at once
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("%v: %v\n%s", args, err, stderr.String())
				}
				if stderr.Len() != 0 {
					t.Fatalf("%v wrote to stderr:\n%s", args, stderr.String())
				}
			})
		}
	}
}

// cleanLocaleEnv is the environment without any locale variable.
func cleanLocaleEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name != "LANG" && name != "LANGUAGE" && !strings.HasPrefix(name, "LC_") {
			env = append(env, kv)
		}
	}
	return env
}

// TestWindowUnderCLocale: the window, and an agent attached through
// --mcp-attach, under LANG=C.UTF-8 log no Fyne locale error, at start or
// while drawing.
func TestWindowUnderCLocale(t *testing.T) {
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANGUAGE", "")
	project := testProject(t)
	w := startWindow(t, project)
	c := w.attach(t, project, "locale-test")
	if res, _ := call(t, c, "trestle_open", map[string]any{"path": "pkg/calc.go", "line": 1}); res.IsError {
		t.Fatal(resultText(res))
	}
	if res, _ := call(t, c, "trestle_workbench", nil); res.IsError {
		t.Fatal(resultText(res))
	}
	if strings.Contains(w.stderr.String(), "Fyne error") {
		t.Fatalf("the window logged a Fyne error:\n%s", w.stderr.String())
	}
}
