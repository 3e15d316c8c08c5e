package task

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"trestle/app/errdefs"
	"trestle/app/projconf"
)

func shTask(name, script string) projconf.Task {
	return projconf.Task{Name: name, Command: []string{"sh", "-c", script}}
}

// startWait starts t and waits for it to end.
func startWait(t *testing.T, rn *Runner, task projconf.Task, onLine func(Line)) *Run {
	t.Helper()
	run, err := rn.Start(context.Background(), task, nil, projconf.Selection{}, onLine)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := run.Wait(ctx); err != nil {
		t.Fatalf("%s did not end: %v", run.ID, err)
	}
	return run
}

func TestRunStreamsLinesInOrder(t *testing.T) {
	rn := NewRunner(t.TempDir())
	var mu sync.Mutex
	var got []string
	run := startWait(t, rn, shTask("echo", "for i in 1 2 3 4 5; do echo line$i; done; echo err >&2; printf tail"), func(l Line) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, fmt.Sprintf("%d:%s", l.N, l.Text))
	})
	want := "1:line1 2:line2 3:line3 4:line4 5:line5 6:err 7:tail"
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, " ") != want {
		t.Fatalf("lines %v, want %s", got, want)
	}
	if run.State() != StatePassed || run.ExitCode() != 0 || run.ID != "run-1" || run.Duration() <= 0 {
		t.Fatalf("run %s state %s exit %d", run.ID, run.State(), run.ExitCode())
	}
}

// TestRunFailedExitCodeAndEnv: the selection's environment reaches the
// task, and its tags are added to the GOFLAGS the caller has, whatever
// they are.
func TestRunFailedExitCodeAndEnv(t *testing.T) {
	for _, tc := range []struct{ name, goflags, want string }{
		{name: "no GOFLAGS", want: "x -tags=a,b"},
		{name: "caller's GOFLAGS", goflags: "-buildvcs=false -mod=mod", want: "x -buildvcs=false -mod=mod -tags=a,b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOFLAGS", tc.goflags)
			rn := NewRunner(t.TempDir())
			sel := projconf.Selection{Tags: []string{"a", "b"}, Env: map[string]string{"DEMO": "x"}}
			run, err := rn.Start(context.Background(), shTask("env", `echo "$DEMO $GOFLAGS"; exit 3`), nil, sel, nil)
			if err != nil {
				t.Fatal(err)
			}
			run.Wait(context.Background())
			out, _ := run.Output(0)
			if run.State() != StateFailed || run.ExitCode() != 3 || out != tc.want {
				t.Fatalf("state %s exit %d output %q, want %q", run.State(), run.ExitCode(), out, tc.want)
			}
		})
	}
}

func TestSecondStartIsBusy(t *testing.T) {
	rn := NewRunner(t.TempDir())
	first, err := rn.Start(context.Background(), shTask("slow", "sleep 10"), nil, projconf.Selection{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = rn.Start(context.Background(), shTask("other", "true"), nil, projconf.Selection{}, nil)
	if !errors.Is(err, errdefs.ErrBusy) || !strings.Contains(err.Error(), `task "slow" is running`) {
		t.Fatalf("want busy naming slow, got %v", err)
	}
	if rn.Current() != first {
		t.Fatal("Current is not the running run")
	}
	if err := rn.Stop(); err != nil {
		t.Fatal(err)
	}
	if first.State() != StateStopped || rn.Current() != nil {
		t.Fatalf("after stop: %s", first.State())
	}
	if got, ok := rn.Get(first.ID); !ok || got != first {
		t.Fatal("Get lost the run")
	}
	startWait(t, rn, shTask("after", "true"), nil)
}

func TestStopKillsTheWholeGroup(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "grandchild.pid")
	script := `sh -c 'trap "" TERM; echo $$ > ` + pidFile + `; while :; do sleep 0.05; done' & trap "" TERM; wait`
	rn := NewRunner(dir)
	run, err := rn.Start(context.Background(), shTask("stubborn", script), nil, projconf.Selection{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pid := waitPidFile(t, pidFile)
	start := time.Now()
	if err := rn.Stop(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < killGrace-100*time.Millisecond || d > killGrace+time.Second {
		t.Fatalf("stop took %s, want about the %s SIGKILL grace", d, killGrace)
	}
	if run.State() != StateStopped {
		t.Fatalf("state %s", run.State())
	}
	if !gone(func() bool { return !alive(pid) }) {
		st, pg, _ := procStat(pid)
		t.Fatalf("grandchild %d survived: state %s group %d (run group %d)", pid, st, pg, run.cmd.Process.Pid)
	}
	if !gone(func() bool { return len(groupMembers(run.cmd.Process.Pid)) == 0 }) {
		t.Fatalf("processes left in the group: %v", groupMembers(run.cmd.Process.Pid))
	}
}

func TestTimeoutKillsTheRun(t *testing.T) {
	rn := NewRunner(t.TempDir())
	task := shTask("slow", "echo started; sleep 10")
	task.Timeout = 300 * time.Millisecond
	run := startWait(t, rn, task, nil)
	if run.State() != StateTimedOut || run.Duration() > 2*time.Second {
		t.Fatalf("state %s after %s", run.State(), run.Duration())
	}
	if out, _ := run.Output(0); out != "started" {
		t.Fatalf("output %q", out)
	}
}

func TestContextCancelStops(t *testing.T) {
	rn := NewRunner(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	run, err := rn.Start(ctx, shTask("slow", "sleep 10"), nil, projconf.Selection{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	run.Wait(context.Background())
	if run.State() != StateStopped {
		t.Fatalf("state %s", run.State())
	}
}

func TestOutputIsBoundedAndProblemsParsed(t *testing.T) {
	rn := NewRunner(t.TempDir())
	script := `echo "# example.com/demo"; echo "./calc/calc.go:3:4: undefined: x"; i=1; while [ $i -le 6000 ]; do echo $i; i=$((i+1)); done`
	run := startWait(t, rn, shTask("many", script), nil)
	out, dropped := run.Output(0)
	lines := strings.Split(out, "\n")
	if len(lines) != MaxLines || dropped != 6002-MaxLines || lines[len(lines)-1] != "6000" {
		t.Fatalf("kept %d lines (last %q), dropped %d", len(lines), lines[len(lines)-1], dropped)
	}
	if tail, _ := run.Output(2); tail != "5999\n6000" {
		t.Fatalf("tail %q", tail)
	}
	want := []Problem{{Path: "calc/calc.go", Line: 3, Col: 4, Message: "undefined: x"}}
	if got := run.Problems(); len(got) != 1 || got[0] != want[0] {
		t.Fatalf("problems %+v", got)
	}
}

func TestTaskDirConfined(t *testing.T) {
	root := t.TempDir()
	if err := os.Symlink(t.TempDir(), filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	rn := NewRunner(root)
	task := shTask("x", "true")
	task.Dir = "out"
	if _, err := rn.Start(context.Background(), task, nil, projconf.Selection{}, nil); !errors.Is(err, errdefs.ErrOutside) {
		t.Fatalf("want outside, got %v", err)
	}
	task.Dir = "missing"
	if _, err := rn.Start(context.Background(), task, nil, projconf.Selection{}, nil); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("want not found, got %v", err)
	}
}

func waitPidFile(t *testing.T, path string) int {
	t.Helper()
	for range 200 {
		if data, err := os.ReadFile(path); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
				return pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the grandchild never wrote its pid")
	return 0
}

// gone polls cond for up to 500 ms: a killed process closes its files a
// moment before the kernel marks it a zombie.
func gone(cond func() bool) bool {
	for range 50 {
		if cond() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// procStat returns the state letter and process group of pid from /proc.
func procStat(pid int) (state string, pgrp int, ok bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, false
	}
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	pgrp, _ = strconv.Atoi(fields[2])
	return fields[0], pgrp, true
}

// alive reports whether pid runs (a zombie is dead).
func alive(pid int) bool {
	state, _, ok := procStat(pid)
	return ok && state != "Z"
}

// groupMembers lists the live processes in process group pgid.
func groupMembers(pgid int) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if state, pg, ok := procStat(pid); ok && pg == pgid && state != "Z" {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestTestProblemsLandInTheirPackage: go test prints a failing test's file
// relative to its package; the verdict line after it names the package,
// and the problem is moved into that package's folder.
func TestTestProblemsLandInTheirPackage(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":            "module example.com/demo\n",
		"calc/calc_test.go": "package calc\n",
		"main_test.go":      "package main\n",
	} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(root, name), []byte(text), 0o644)
	}
	script := `printf '    calc_test.go:7: 2+2 is not 5\nFAIL\nFAIL\texample.com/demo/calc\t0.01s\n' ` +
		`&& printf '    main_test.go:3: boom\nnowhere.go:1: gone\nFAIL\texample.com/demo\t0.01s\n' ` +
		`&& printf 'x_test.go:2: other module\nFAIL\tother.org/x\t0.01s\n'`
	run := startWait(t, NewRunner(root), shTask("test", script), nil)
	var got []string
	for _, p := range run.Problems() {
		got = append(got, fmt.Sprintf("%s:%d", p.Path, p.Line))
	}
	want := "calc/calc_test.go:7 nowhere.go:1 main_test.go:3 x_test.go:2"
	if strings.Join(got, " ") != want {
		t.Fatalf("problems %v, want %s", got, want)
	}
}
