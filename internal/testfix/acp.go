package testfix

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	acpAgentOnce sync.Once
	acpAgentPath string
	acpAgentErr  error
)

// ACPAgent builds the scripted ACP agent (internal/testfix/acpagent) once
// per test binary and returns its path.
func ACPAgent(tb testing.TB) string {
	tb.Helper()
	acpAgentOnce.Do(func() {
		dir, err := os.MkdirTemp("", "trestle-acpagent-")
		if err != nil {
			acpAgentErr = err
			return
		}
		acpAgentPath = filepath.Join(dir, "acpagent")
		out, err := exec.Command("go", "build", "-o", acpAgentPath, "trestle/internal/testfix/acpagent").CombinedOutput()
		if err != nil {
			acpAgentErr = err
			acpAgentPath = string(out)
		}
	})
	if acpAgentErr != nil {
		tb.Fatalf("build the scripted ACP agent: %v\n%s", acpAgentErr, acpAgentPath)
	}
	return acpAgentPath
}

// RequireBwrap skips the test when bubblewrap cannot make a sandbox here,
// except in CI, where that is a failure (scripts/deps.sh --test installs it).
func RequireBwrap(tb testing.TB) {
	tb.Helper()
	path, err := exec.LookPath("bwrap")
	if err == nil {
		err = exec.Command(path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--", "true").Run()
	}
	if err != nil {
		err = fmt.Errorf("bubblewrap cannot make a sandbox: %w", err)
	}
	Need(tb, "bubblewrap", err)
}

// Need skips the test when err says a program it needs (what) is missing
// here, except in CI, where that is a failure: scripts/deps.sh --test
// installs every program the tests need.
func Need(tb testing.TB, what string, err error) {
	tb.Helper()
	if err == nil {
		return
	}
	if os.Getenv("CI") != "" {
		tb.Fatalf("CI needs %s (scripts/deps.sh --test installs it): %v", what, err)
	}
	tb.Skipf("%s is not installed here (scripts/deps.sh --test installs it): %v", what, err)
}

// WaitNoProcess waits until no process has marker in its command line,
// failing the test when one is still there after d.
func WaitNoProcess(tb testing.TB, d time.Duration, marker string) {
	tb.Helper()
	Wait(tb, d, "no process with "+marker+" in its command line", func() bool { return len(Processes(marker)) == 0 })
}

// Processes lists the pids of the processes with marker in their command line.
func Processes(marker string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(data), marker) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}
