package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"trestle/internal/testfix"
)

// Faults (issue 7): evaluated code that loops or exits, an evaluator killed
// from outside and a task that ignores SIGTERM, each while a second agent
// keeps asking the window for trestle_workbench. The window must go on
// answering UI tools within their bound throughout. Also the blocked-UI
// busy figure and idle RSS for make bench.

// uiBound is how long the window may go without answering a UI tool: a
// window that is not frozen answers within the 2 s bounded call (or says
// busy), but on a loaded two-core CI machine two bridges, Xvfb and
// parallel builds can stretch that by seconds. The frozen windows this
// guards against went silent for minutes (issue 20: 90 s, 12 minutes).
// How fast it answers is make bench's figure, not this test's.
const uiBound = 15 * time.Second

// uiProbe calls trestle_workbench every 100 ms on its own client and
// records each call's latency and any failure. A call fails when it takes
// longer than uiBound or answers an error other than busy; busy (the UI
// thread did not answer within the 2 s bound, so the bound did its job) is
// counted, and fails only when busy answers have gone on for longer than
// uiBound: a UI thread blocked, not just slow on a loaded machine. Its
// goroutine is owned by the probe: stop ends it.
type uiProbe struct {
	c    *client.Client
	stop chan struct{}
	done chan struct{}

	mu        sync.Mutex
	lat       []time.Duration
	checked   int // calls already covered by check
	busy      int // busy answers since the last check
	allBusy   int
	lastBusy  bool
	busySince time.Time // when the current run of busy answers began
	failures  []string
}

func startUIProbe(c *client.Client) *uiProbe {
	p := &uiProbe{c: c, stop: make(chan struct{}), done: make(chan struct{})}
	go p.loop()
	return p
}

func (p *uiProbe) loop() {
	defer close(p.done)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
		}
		took, busy, err := p.once()
		p.mu.Lock()
		p.lat = append(p.lat, took)
		if busy {
			p.busy++
			p.allBusy++
		}
		if busy && !p.lastBusy {
			p.busySince = time.Now().Add(-took)
		}
		busyFor := time.Duration(0)
		if busy {
			busyFor = time.Since(p.busySince)
		}
		if err != nil || took > uiBound || busyFor > uiBound {
			p.failures = append(p.failures, fmt.Sprintf("%s: trestle_workbench took %v (busy %v, answering busy for %v): %v",
				time.Now().Format("15:04:05.000"), took, busy, busyFor.Round(time.Millisecond), err))
		}
		p.lastBusy = busy
		p.mu.Unlock()
	}
}

func (p *uiProbe) once() (took time.Duration, busy bool, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*uiBound) // a slower call is measured, then fails
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = "trestle_workbench"
	start := time.Now()
	res, err := p.c.CallTool(ctx, req)
	took = time.Since(start)
	switch {
	case err != nil:
	case res.IsError && strings.HasPrefix(resultText(res), "busy: "):
		busy = true
	case res.IsError:
		err = fmt.Errorf("isError: %s", resultText(res))
	}
	return took, busy, err
}

// check waits until the probe has made at least three calls since the
// last check (a fast fault may end before the next tick), reports the
// failures since then and logs the calls and the slowest of them.
func (p *uiProbe) check(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(3 * uiBound); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		p.mu.Lock()
		n := len(p.lat) - p.checked
		p.mu.Unlock()
		if n >= 3 {
			break
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range p.failures {
		t.Error(f)
	}
	p.failures = nil
	recent := p.lat[p.checked:]
	p.checked = len(p.lat)
	if len(recent) == 0 {
		t.Error("the UI probe made no call during this fault")
		return
	}
	t.Logf("UI probe during this fault: %d calls, worst %v, %d answered busy", len(recent), slices.Max(recent), p.busy)
	p.busy = 0
}

// finish stops the probe and returns the number of calls, of busy
// answers, p50 and worst.
func (p *uiProbe) finish() (n, busy int, p50, worst time.Duration) {
	close(p.stop)
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	l := slices.Clone(p.lat)
	slices.Sort(l)
	if len(l) == 0 {
		return 0, 0, 0, 0
	}
	return len(l), p.allBusy, l[len(l)/2], l[len(l)-1]
}

// stubbornTask writes a .trestle.json whose task "stubborn" ignores
// SIGTERM, in sh and in its sleep child; marker makes its processes
// findable in /proc.
func stubbornTask(t *testing.T, project, marker string) {
	t.Helper()
	script := "trap '' TERM; echo started; sleep 60; true " + marker
	conf := fmt.Sprintf(`{"tasks": {"stubborn": {"command": ["sh", "-c", %q]}}}`, script)
	if err := os.WriteFile(filepath.Join(project, ".trestle.json"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFaultsKeepUIAnswering: an infinite loop past its deadline, os.Exit in
// evaluated code, the evaluator SIGKILLed mid-evaluation and a task that
// ignores SIGTERM. Each is reported as a problem, the next evaluation works
// with fresh state, the run ends within the SIGKILL grace with nothing of it
// left, and trestle_workbench answers within uiBound every 100 ms throughout.
func TestFaultsKeepUIAnswering(t *testing.T) {
	project := testProject(t)
	marker := fmt.Sprintf("trestle-fault-%d-%d", os.Getpid(), time.Now().UnixNano())
	stubbornTask(t, project, marker)
	w := startWindowArgs(t, project, "--agent-policy", "allow", "--trust") // the task is .trestle.json's
	agent := w.attach(t, "", "fault-agent")
	probe := startUIProbe(w.attach(t, "", "ui-probe"))
	defer func() {
		n, busy, p50, worst := probe.finish()
		t.Logf("UI probe: %d trestle_workbench calls, %d answered busy, p50 %v, worst %v (bound %v)", n, busy, p50, worst, uiBound)
	}()
	wantEval(t, agent, "1+1", "= 2") // the worker is up before the faults

	t.Run("infinite loop past its deadline", func(t *testing.T) {
		wantEval(t, agent, "faultState := 7\nfaultState", "= 7")
		start := time.Now()
		res, sc := call(t, agent, "trestle_eval", map[string]any{"code": "for {}", "timeout_seconds": 2})
		took := time.Since(start)
		if !res.IsError || sc["state"] != "problem" || !strings.Contains(resultText(res), "deadline") {
			t.Fatalf("for {}: %v %s", sc, resultText(res))
		}
		// Not before the deadline; after it, soon (a hung evaluation would
		// wait for the client); how soon is for a loaded machine to say.
		if took < 2*time.Second || took > 2*time.Second+uiBound {
			t.Errorf("the deadline answer came after %v, want after the 2s deadline and within %v of it", took, uiBound)
		}
		wantFresh(t, agent)
		probe.check(t)
	})

	t.Run("os.Exit in evaluated code", func(t *testing.T) {
		wantEval(t, agent, "faultState := 7\nfaultState", "= 7")
		res, sc := call(t, agent, "trestle_eval", map[string]any{"code": "import \"os\"\nos.Exit(3)"})
		if !res.IsError || sc["state"] != "problem" || !strings.Contains(resultText(res), "the evaluator died") {
			t.Fatalf("os.Exit(3): %v %s", sc, resultText(res))
		}
		wantFresh(t, agent)
		probe.check(t)
	})

	t.Run("evaluator SIGKILLed mid-evaluation", func(t *testing.T) {
		wantEval(t, agent, "faultState := 7\nfaultState", "= 7")
		type answer struct {
			res  *mcp.CallToolResult
			took time.Duration
		}
		answered := make(chan answer, 1)
		start := time.Now()
		go func() { // owned by this subtest: it waits for the answer below
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			req := mcp.CallToolRequest{}
			req.Params.Name = "trestle_eval"
			req.Params.Arguments = map[string]any{"code": "import \"time\"\ntime.Sleep(5*time.Second)\n1", "timeout_seconds": 10}
			res, err := agent.CallTool(ctx, req)
			if err != nil {
				res = mcp.NewToolResultError("call failed: " + err.Error())
			}
			answered <- answer{res, time.Since(start)}
		}()
		pid := runningEvaluator(t, agent)
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatalf("kill the evaluator %d: %v", pid, err)
		}
		a := <-answered
		text := resultText(a.res)
		if !a.res.IsError || !strings.Contains(text, "the evaluator died") {
			t.Fatalf("a killed evaluator answered: %s", text)
		}
		if a.took > 4*time.Second {
			t.Errorf("the death was reported after %v, not before the 5s sleep would end", a.took)
		}
		wantFresh(t, agent)
		if now := evaluatorPID(t, agent); now == pid || now == 0 {
			t.Errorf("evaluator pid after the kill: %d (killed %d)", now, pid)
		}
		probe.check(t)
	})

	t.Run("task that ignores SIGTERM", func(t *testing.T) {
		res, sc := call(t, agent, "trestle_run", map[string]any{"task": "stubborn", "wait_seconds": 0})
		if res.IsError || sc["run_state"] != "running" {
			t.Fatalf("trestle_run: %v %s", sc, resultText(res))
		}
		group := waitGroup(t, marker)
		start := time.Now()
		res, _ = call(t, agent, "trestle_stop", map[string]any{"what": "run"})
		took := time.Since(start)
		if res.IsError {
			t.Fatalf("trestle_stop: %s", resultText(res))
		}
		// After the grace, and long before the task's sleep 60 would end;
		// how soon after is for a loaded machine to say.
		if took < 1500*time.Millisecond || took > 2*time.Second+uiBound {
			t.Errorf("the stop took %v, want the 2s SIGKILL grace (SIGTERM is ignored), within %v", took, uiBound)
		}
		// The stop returns once the leader is reaped and the output pipe is
		// closed; a SIGKILLed child may still be between closing its files
		// and becoming a zombie for a moment (seen on a loaded machine), so
		// the group must be gone within a short bound, not at that instant.
		testfix.Wait(t, time.Minute, "no process of the run is left after the stop", func() bool {
			return len(groupMembers(group)) == 0 && len(withMarker(marker)) == 0
		})
		_, sc = call(t, agent, "trestle_run_status", map[string]any{"run_id": sc["run_id"]})
		if sc["run_state"] != "stopped" {
			t.Errorf("run_state after the stop: %v", sc["run_state"])
		}
		t.Logf("stopped a SIGTERM-ignoring run (process group %d) in %v", group, took)
		probe.check(t)
	})
}

// wantEval evaluates code and checks the answer's text contains want.
func wantEval(t *testing.T, c *client.Client, code, want string) {
	t.Helper()
	res, _ := call(t, c, "trestle_eval", map[string]any{"code": code})
	if res.IsError || !strings.Contains(resultText(res), want) {
		t.Fatalf("eval %q: %s (want %q)", code, resultText(res), want)
	}
}

// wantFresh checks that the evaluator lost faultState (it starts fresh)
// and evaluates again.
func wantFresh(t *testing.T, c *client.Client) {
	t.Helper()
	res, _ := call(t, c, "trestle_eval", map[string]any{"code": "faultState"})
	if !res.IsError || !strings.Contains(resultText(res), "undefined") {
		t.Errorf("the evaluator's state survived the fault: %s", resultText(res))
	}
	wantEval(t, c, "1+1", "= 2")
}

// evaluatorPID is the default selection's worker pid, from trestle_workbench.
func evaluatorPID(t *testing.T, c *client.Client) int {
	t.Helper()
	pid, _ := evaluator(t, c)
	return pid
}

func evaluator(t *testing.T, c *client.Client) (pid int, state string) {
	t.Helper()
	_, sc := call(t, c, "trestle_workbench", nil)
	evals, _ := sc["evaluators"].([]any)
	for _, e := range evals {
		m, _ := e.(map[string]any)
		if m["selection"] == "default" {
			n, _ := m["pid"].(float64)
			s, _ := m["state"].(string)
			return int(n), s
		}
	}
	return 0, ""
}

// runningEvaluator waits until the default evaluator is evaluating and
// returns its pid.
func runningEvaluator(t *testing.T, c *client.Client) int {
	t.Helper()
	// The evaluation sleeps 5 s: past that "running" is gone, and the wait
	// says what it saw instead.
	return testfix.WaitFor(t, 30*time.Second, "the evaluator shown as running; last seen pid", func() (int, bool) {
		pid, state := evaluator(t, c)
		return pid, state == "running" && pid > 0
	}, testfix.Every(50*time.Millisecond))
}

// waitGroup waits until the run's shell (found by marker) and its sleep
// child are up, and returns their process group.
func waitGroup(t *testing.T, marker string) int {
	t.Helper()
	pids := testfix.WaitFor(t, 30*time.Second, "the run's sh and sleep (marker "+marker+"); last seen pids", func() ([]int, bool) {
		pids := withMarker(marker)
		return pids, len(pids) == 1 && len(groupMembers(pids[0])) == 2 // sh is the group leader
	}, testfix.Every(50*time.Millisecond))
	return pids[0]
}

// procs lists the live processes (zombies left out: this container's
// init may not reap orphans) with their process group and command line.
func procs() map[int]struct {
	pgid int
	cmd  string
} {
	out := map[int]struct {
		pgid int
		cmd  string
	}{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces, so split after ")".
		i := strings.LastIndexByte(string(stat), ')')
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 3 || f[0] == "Z" {
			continue
		}
		pgid, _ := strconv.Atoi(f[2])
		cmdline, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		out[pid] = struct {
			pgid int
			cmd  string
		}{pgid, strings.ReplaceAll(string(cmdline), "\x00", " ")}
	}
	return out
}

// groupMembers lists the live processes of process group pgid.
func groupMembers(pgid int) []int {
	var pids []int
	for pid, p := range procs() {
		if p.pgid == pgid {
			pids = append(pids, pid)
		}
	}
	return pids
}

// withMarker lists the live processes whose command line holds marker,
// other than this test's own.
func withMarker(marker string) []int {
	var pids []int
	for pid, p := range procs() {
		if strings.Contains(p.cmd, marker) && pid != os.Getpid() {
			pids = append(pids, pid)
		}
	}
	return pids
}

// BenchmarkBusyUI blocks the window's UI thread for 3 s with
// trestle_debug_stall and times trestle_workbench until it answers busy:
// the bound is 2 s, reported as busy-ms and excess-ms (past the bound).
func BenchmarkBusyUI(b *testing.B) {
	w := startWindow(b, testProject(b))
	c := w.attach(b, "", "bench-busy")
	var total time.Duration
	for b.Loop() {
		if res, _ := call(b, c, "trestle_debug_stall", map[string]any{"millis": 3000}); res.IsError {
			b.Fatal(resultText(res))
		}
		start := time.Now()
		res, sc := call(b, c, "trestle_workbench", nil)
		took := time.Since(start)
		if !res.IsError || sc["state"] != "busy" {
			b.Fatalf("want busy, got %v", sc)
		}
		total += took
		b.StopTimer()
		testfix.Wait(b, 15*time.Second, "the stall ends", func() bool { // before the next one starts
			res, _ := call(b, c, "trestle_workbench", nil)
			return !res.IsError
		})
		b.StartTimer()
	}
	avg := total / time.Duration(b.N)
	b.ReportMetric(float64(avg.Microseconds())/1000, "busy-ms")
	b.ReportMetric(float64((avg-2*time.Second).Microseconds())/1000, "excess-ms")
}

// BenchmarkIdleRSS reports the resident memory (VmRSS) of a window, a
// bridge attached to it and a headless server, each initialized and then
// idle for 2 s. Run it with -benchtime 1x.
func BenchmarkIdleRSS(b *testing.B) {
	project := testProject(b)
	w := startWindow(b, project)
	bridge := startRawBridge(b, w.env, "--mcp-attach", project)
	headless := startRawBridge(b, []string{"TRESTLE_CONFIG_DIR=" + b.TempDir(), "DISPLAY="}, "--mcp", testProject(b))
	for _, br := range []*rawBridge{bridge, headless} {
		br.send(b, initLine)
		if m := br.recv(b); m["result"] == nil {
			b.Fatalf("initialize: %v", m)
		}
		br.send(b, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	var window, attach, alone float64
	for b.Loop() {
		time.Sleep(2 * time.Second)
		window += vmRSS(b, w.cmd.Process.Pid)
		attach += vmRSS(b, bridge.cmd.Process.Pid)
		alone += vmRSS(b, headless.cmd.Process.Pid)
	}
	n := float64(b.N)
	b.ReportMetric(window/n, "window-MiB")
	b.ReportMetric(attach/n, "bridge-MiB")
	b.ReportMetric(alone/n, "headless-MiB")
	b.ReportMetric(float64(toolsListBytes(b, bridge)), "window-tools-B") // after the RSS: the answer is not idle memory
}

// vmRSS reads VmRSS of pid from /proc, in MiB.
func vmRSS(b *testing.B, pid int) float64 {
	b.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				b.Fatalf("VmRSS %q: %v", v, err)
			}
			return float64(kb) / 1024
		}
	}
	b.Fatalf("no VmRSS for pid %d", pid)
	return 0
}
