package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestFrontHandsOffInTheSameProcess: `trestle --mcp DIR` run through the
// front becomes the workbench in the same process (what a client started
// is what serves it, and a signal to that pid reaches the server): the
// process's executable turns into trestle-workbench beside the front.
func TestFrontHandsOffInTheSameProcess(t *testing.T) {
	front := trestleBin(t)
	cmd := exec.Command(front, "--mcp", testProject(t))
	cmd.Env = append(os.Environ(), "TRESTLE_CONFIG_DIR="+t.TempDir(), "DISPLAY=")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	want := filepath.Join(filepath.Dir(front), workbenchName)
	exe := "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/exe"
	var got string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if got, _ = os.Readlink(exe); got == want {
			return
		}
	}
	t.Fatalf("pid %d runs %q, want the workbench %q", cmd.Process.Pid, got, want)
}

// TestFrontWithoutItsWorkbench: a front copied away from its workbench
// still runs `trestle changes` (it needs nothing else), and for any other
// command says in one line what is missing, and where, with exit code 1.
func TestFrontWithoutItsWorkbench(t *testing.T) {
	data, err := os.ReadFile(trestleBin(t))
	if err != nil {
		t.Fatal(err)
	}
	alone := filepath.Join(t.TempDir(), "trestle")
	if err := os.WriteFile(alone, data, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(alone, "changes", "--help").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "trestle changes list") {
		t.Fatalf("changes --help without the workbench: %v\n%s", err, out)
	}
	out, err = exec.Command(alone, "--version").CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("--version without the workbench: %v, want exit code 1\n%s", err, out)
	}
	msg := strings.TrimSuffix(string(out), "\n")
	missing := filepath.Join(filepath.Dir(alone), workbenchName)
	if strings.Contains(msg, "\n") || !strings.Contains(msg, missing) || !strings.Contains(msg, "beside it") {
		t.Fatalf("--version without the workbench said %q, want one line naming %s and where it belongs", msg, missing)
	}
}
