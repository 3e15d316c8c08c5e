package main

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"
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
// xdoBound is the longest one xdotool command may take: its --sync
// waits (a window showing, focus, a move) take milliseconds to seconds at
// load.
const xdoBound = 90 * time.Second

func (w *window) xdo(tb testing.TB) func(args ...string) string {
	return func(args ...string) string {
		tb.Helper()
		// Bounded: xdotool's --sync waits without end for what never
		// happens (a window that never shows, a move to where it already
		// is), and one such wait held a whole make test for its 45 minutes.
		ctx, cancel := context.WithTimeout(context.Background(), xdoBound)
		defer cancel()
		cmd := exec.CommandContext(ctx, "xdotool", args...)
		// A UTF-8 locale whatever the caller's (a CI's env -i has none):
		// the titles it searches for and prints hold "—" (see launchWindow).
		cmd.Env = append(os.Environ(), "DISPLAY="+w.display, "LC_ALL=C.UTF-8")
		out, err := cmd.CombinedOutput()
		if ctx.Err() != nil {
			tb.Fatalf("xdotool %v did not finish within %v\n%s", args, xdoBound, out)
		}
		if err != nil {
			tb.Fatalf("xdotool %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
}
