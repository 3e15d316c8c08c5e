package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"trestle/app/errdefs"
	"trestle/internal/testfix"
)

func TestMemoryLimitSaysOutOfMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("RLIMIT_AS is set on Linux")
	}
	m := newTestManager(t, nil)
	m.opts.MemoryLimit = 256 << 20
	mustEval(t, m, "", "kept := 1")
	res, err := m.Eval(context.Background(), "", "b := make([]byte, 4<<30)\nb[len(b)-1] = 1\nlen(b)", 20*time.Second)
	if !errors.Is(err, ErrNoMemory) || !strings.Contains(err.Error(), "out of memory") || !strings.Contains(err.Error(), "256 MiB") {
		t.Fatalf("want an out of memory error naming the limit, got %v (%+v)", err, res)
	}
	if len(res.Lost) != 1 || res.Lost[0] != "kept := 1" {
		t.Fatalf("the result should list the lost state-defining input: %q", res.Lost)
	}
	wantValue(t, mustEval(t, m, "", "1+1"), "2", "int")
}

func TestSetsidChildDiesWithTheWorker(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the subreaper is a Linux feature")
	}
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid command")
	}
	m := newTestManager(t, nil)
	pidFile := filepath.Join(t.TempDir(), "pid")
	// The shell starts a detached sleep in a session of its own and exits:
	// the sleep is orphaned, out of the worker's process group.
	code := fmt.Sprintf("import \"os/exec\"\nexec.Command(\"sh\", \"-c\", \"setsid sleep 300 & echo $! > %s\").Run()", pidFile)
	if res := mustEval(t, m, "", code); res.Err != "" {
		t.Fatal(res.Err)
	}
	var pid int
	testfix.Wait(t, 30*time.Second, "waiting for the pid file", func() bool {
		data, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		return pid > 0
	})
	if syscall.Kill(pid, 0) != nil {
		t.Fatalf("the detached sleep %d is not running", pid)
	}
	if _, err := m.Eval(context.Background(), "", "for {}", 300*time.Millisecond); !errors.Is(err, ErrDeadline) {
		t.Fatalf("want the deadline, got %v", err)
	}
	testfix.Wait(t, 30*time.Second, "waiting for the detached child to die", func() bool {
		return !running(pid)
	})
}

// running reports whether pid is a live (not zombie) process.
func running(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(data)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+1:]
	}
	f := strings.Fields(s)
	return len(f) > 0 && f[0] != "Z"
}

func TestDeadOwnersTempTreesAreRemoved(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("owner checks are Linux-only")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadDir := filepath.Join(tmp, fmt.Sprintf("trestle-eval-%d-123", dead.Process.Pid))
	liveDir := filepath.Join(tmp, fmt.Sprintf("trestle-eval-%d-456", os.Getppid()))
	other := filepath.Join(tmp, "trestle-eval-notapid")
	for _, d := range []string{deadDir, liveDir, other} {
		if err := os.MkdirAll(filepath.Join(d, "gopath-1", "src"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	m := newTestManager(t, nil)
	wantValue(t, mustEval(t, m, "", "1"), "1", "int")
	if _, err := os.Stat(deadDir); !os.IsNotExist(err) {
		t.Errorf("the dead owner's tree %s is still there (%v)", deadDir, err)
	}
	for _, d := range []string{liveDir, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s should be kept: %v", d, err)
		}
	}
}

func TestDeadlineResultListsTheStateToReplay(t *testing.T) {
	m := newTestManager(t, nil)
	mustEval(t, m, "", "x := 40")
	mustEval(t, m, "", "func inc(n int) int { return n + 1 }")
	mustEval(t, m, "", "x + 1")      // no state: not listed
	mustEval(t, m, "", "undefined9") // failed: not listed
	killed, err := m.Eval(context.Background(), "", "for {}", 300*time.Millisecond)
	if !errors.Is(err, ErrDeadline) {
		t.Fatalf("want the deadline, got %v", err)
	}
	if !killed.StateLost || len(killed.Lost) != 2 {
		t.Fatalf("the deadline's result should say the state was lost and list 2 inputs: %+v", killed)
	}
	res, err := m.Eval(context.Background(), "", "x", 5*time.Second)
	if err != nil || res.Err == "" {
		t.Fatalf("x should be gone in the fresh worker: %+v %v", res, err)
	}
	if res.StateLost {
		t.Errorf("an evaluation error is not a lost state: %+v", res)
	}
	want := []string{"x := 40", "func inc(n int) int { return n + 1 }"}
	if got := m.Lost(""); !slices.Equal(got, want) {
		t.Fatalf("Lost = %q, want %q", got, want)
	}
	if rs, err := m.ReplayExactly(context.Background(), "", want[:1], 10*time.Second, nil); !errors.Is(err, errdefs.ErrBusy) || len(rs) != 0 || len(m.Lost("")) != 2 {
		t.Fatalf("a replay of other inputs than were shown must run nothing: %v, %d results, %d left", err, len(rs), len(m.Lost("")))
	}
	var heard []string
	results, err := m.Replay(context.Background(), "", 10*time.Second, func(code string, res Result, err error) {
		heard = append(heard, code)
	})
	if err != nil || len(results) != 2 {
		t.Fatalf("replay: %v, %d results", err, len(results))
	}
	if !slices.Equal(heard, want) || len(m.Lost("")) != 0 {
		t.Errorf("replay ran %q (want %q), left %q", heard, want, m.Lost(""))
	}
	wantValue(t, mustEval(t, m, "", "inc(x) + 1"), "42", "int")
}

// TestReplayRebuildsWhatCallsChanged: inputs that change state without
// assigning (a method call on a value, a package's state through a
// call, a loop) are among the inputs a fresh worker runs again (Replay
// after a deadline, and the switch to the native worker, which takes the
// same list): the replay once left them out, and the value read after it
// was silently the one from before them.
func TestReplayRebuildsWhatCallsChanged(t *testing.T) {
	m := newTestManager(t, nil)
	for _, in := range []string{"import \"strings\"\nvar sb strings.Builder", "sb.WriteString(\"ab\")",
		"import \"os\"\nos.Setenv(\"TRESTLE_REPLAY_NOTE\", \"on\")", "for i := 0; i < 3; i++ { sb.WriteByte('c') }", "sb.Len()"} {
		if res := mustEval(t, m, "", in); res.Err != "" {
			t.Fatalf("%q: %s", in, res.Err)
		}
	}
	if _, err := m.Eval(context.Background(), "", "for {}", 300*time.Millisecond); !errors.Is(err, ErrDeadline) {
		t.Fatalf("want the deadline, got %v", err)
	}
	if _, err := m.Replay(context.Background(), "", 10*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	wantValue(t, mustEval(t, m, "", "sb.String() + os.Getenv(\"TRESTLE_REPLAY_NOTE\")"), `"abcccon"`, "string")
}

// TestCrashSummaryNamesTheCause: a worker that crashes with a long
// goroutine dump is reported by the runtime's first lines, not by the
// dump's last bytes.
func TestCrashSummaryNamesTheCause(t *testing.T) {
	w := &tailWriter{max: stderrTail}
	w.Write([]byte("fatal error: concurrent map writes\n\ngoroutine 1 [running]:\n"))
	for range 200 {
		w.Write([]byte("runtime.mapassign_faststr(0x123, 0x456)\n\t/usr/local/go/src/internal/runtime/maps/runtime_faststr.go:263 +0x123 fp=0x1 sp=0x2\n"))
	}
	if got := w.summary(); got != "fatal error: concurrent map writes" {
		t.Errorf("summary %q", got)
	}
	plain := &tailWriter{max: stderrTail}
	plain.Write([]byte("some words before exiting\n"))
	if got := plain.summary(); got != "some words before exiting" {
		t.Errorf("a plain message: %q", got)
	}
}
