package main

import (
	"os"
	"os/exec"
	"testing"
	"trestle/internal/testfix"
)

// needXdotool skips a test that types into the window without xdotool,
// except under CI, where scripts/deps.sh installs it.
func needXdotool(tb testing.TB) {
	tb.Helper()
	_, err := exec.LookPath("xdotool")
	testfix.Need(tb, "xdotool", err)
}

// xdo returns a function that runs xdotool with its arguments on w's
// display (real key presses and window searches) and returns its output;
// a failure fails the test.
func (w *window) xdo(tb testing.TB) func(args ...string) string {
	return func(args ...string) string {
		tb.Helper()
		cmd := exec.Command("xdotool", args...)
		cmd.Env = append(os.Environ(), "DISPLAY="+w.display)
		out, err := cmd.CombinedOutput()
		if err != nil {
			tb.Fatalf("xdotool %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
}
