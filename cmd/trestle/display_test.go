package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestWindowWithoutDisplaySaysSoInOneLine: `trestle DIR` (what make run
// does) with no display prints one line saying what to do and exits 1,
// instead of GLFW's panic, and touches nothing of the person's.
func TestWindowWithoutDisplaySaysSoInOneLine(t *testing.T) {
	config := t.TempDir()
	out, err := runTrestle(t, []string{"DISPLAY=", "WAYLAND_DISPLAY=", "TRESTLE_CONFIG_DIR=" + config}, testProject(t))
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("exit: %v, want status 1; output:\n%s", err, out)
	}
	if lines := strings.Split(strings.TrimRight(out, "\n"), "\n"); len(lines) != 1 || !strings.Contains(out, "DISPLAY") || !strings.Contains(out, "--mcp") {
		t.Fatalf("want one line naming DISPLAY and the headless mode, got %d:\n%s", len(lines), out)
	}
	if entries, _ := os.ReadDir(config); len(entries) != 0 {
		t.Errorf("the config folder got %d entries without a window", len(entries))
	}
}
