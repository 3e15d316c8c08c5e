package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// TestOpenRecentRaisesTheWindowThatHasIt (issue 22): two Trestle processes
// on two projects share a display and a config. From window B, Open Recent
// of A's project, picked with real keys, brings window A to the front with
// the keyboard focus (under Xvfb there is no window manager: GLFW raises
// and focuses the window itself) and starts no third process; so does
// `trestle A` typed in a shell, which then exits at once.
func TestOpenRecentRaisesTheWindowThatHasIt(t *testing.T) {
	needXdotool(t)
	projA, projB := testProject(t), testProject(t)
	a := startWindow(t, projA)
	b := startWindowBeside(t, a, projB)
	xdo := a.xdo(t)
	titleA, titleB := "Trestle — "+filepath.Base(projA), "Trestle — "+filepath.Base(projB)
	focusB := func() {
		xdo("search", "--sync", "--onlyvisible", "--name", "^"+titleB+"$", "windowfocus", "--sync")
		waitFocused(t, a, titleB)
	}
	// B sits lower right of A, so a screenshot shows which is in front.
	// windowmove --sync waits for the window to move, and a move made
	// while B is still being mapped is undone by GLFW's own placement (B
	// then stayed at 0,0 and the wait never ended): move until it is there.
	idB := strings.Fields(xdo("search", "--sync", "--onlyvisible", "--name", "^"+titleB+"$"))[0]
	testfix.WaitFor(t, 30*time.Second, "B moved to 180,80; its geometry", func() (string, bool) {
		xdo("windowmove", idB, "180", "80")
		geo := xdo("getwindowgeometry", idB)
		return geo, strings.Contains(geo, "Position: 180,80")
	}, testfix.Every(200*time.Millisecond))
	focusB()
	time.Sleep(500 * time.Millisecond) // let B's frame paint
	a.screenshot(t, "raise-before")
	// B's Open Recent lists A (A's start recorded it in the store, which B
	// read as it started) and not B's own project.
	xdo("key", "F10")                   // File
	xdo("key", "Down", "Down", "Right") // Open Folder…, Open Recent ▸
	xdo("key", "Return")                // its first item: A
	waitFocused(t, a, titleA)
	time.Sleep(500 * time.Millisecond) // let both frames paint
	a.screenshot(t, "raise-after-open-recent")
	if n := processesOn(t, projA); n != 1 {
		t.Fatalf("%d Trestle processes have %s open, want only window A", n, projA)
	}

	focusB()
	// Bounded: a `trestle A` that opened a second window would never exit.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	shell := exec.CommandContext(ctx, trestleBin(t), projA)
	shell.Env = append(os.Environ(), a.env...)
	out, err := shell.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "brought it to the front") {
		t.Fatalf("trestle %s with window A open: %v (a minute is its bound)\n%s", projA, err, out)
	}
	waitFocused(t, a, titleA)
	select {
	case <-b.exited:
		t.Fatalf("window B exited:\n%s", b.stderr.String())
	default:
	}
}

// waitFocused waits until the window with the keyboard focus on w's
// display is named title.
func waitFocused(t *testing.T, w *window, title string) {
	t.Helper()
	xdo := w.xdo(t)
	testfix.WaitFor(t, 30*time.Second, "the focused window named "+title+"; focused", func() (string, bool) {
		name := strings.TrimSpace(xdo("getwindowfocus", "getwindowname"))
		return name, name == title
	}, testfix.Every(100*time.Millisecond))
}

// processesOn counts the running Trestle binaries (the test's) whose last
// argument is dir: started through the front (which keeps argv[0] when it
// hands off) or by a window, which starts its workbench binary directly.
func processesOn(t *testing.T, dir string) int {
	t.Helper()
	bin := trestleBin(t)
	workbench := filepath.Join(filepath.Dir(bin), workbenchName)
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	n := 0
	for _, p := range procs {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
		if len(args) >= 2 && (args[0] == bin || args[0] == workbench) && args[len(args)-1] == dir {
			n++
		}
	}
	return n
}
