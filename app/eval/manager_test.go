package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"trestle/app/errdefs"
	"trestle/app/projconf"
	"trestle/internal/testfix"
)

// mustEval evaluates and fails the test on an evaluator error.
func mustEval(t *testing.T, m *Manager, sel, code string) Result {
	t.Helper()
	res, err := m.Eval(context.Background(), sel, code, 20*time.Second)
	if err != nil {
		t.Fatalf("eval %q: %v (notes %v)", code, err, res.Notes)
	}
	return res
}

// wantValue checks a result's value and type, with no error in the code.
func wantValue(t *testing.T, res Result, value, typ string) {
	t.Helper()
	if res.Err != "" || res.Value != value || res.Type != typ {
		t.Fatalf("got value %q type %q err %q output %q notes %v; want %q (%s)", res.Value, res.Type, res.Err, res.Output, res.Notes, value, typ)
	}
}

func TestEvalImportsProjectCodeAndDependency(t *testing.T) {
	m := newTestManager(t, nil)
	res := mustEval(t, m, "", "import \"example.com/demo/calc\"\ncalc.Add(2, 3)")
	wantValue(t, res, "5", "int")
	wantValue(t, mustEval(t, m, "", "calc.IDLen()"), "36", "int")
}

func TestEvalMixedImportsStatementsAndDeclarations(t *testing.T) {
	m := newTestManager(t, nil)
	code := `x := 2
import "strings"
func twice(s string) string { return strings.Repeat(s, x) }
import (
	"fmt"
	"os"
)
fmt.Println("printed")
fmt.Fprintln(os.Stderr, "to stderr")
os.Stdout.WriteString("direct\n")
println("builtin")
p := struct{ A, B int }{1, 2}
_ = p
twice("ab")`
	res := mustEval(t, m, "", code)
	wantValue(t, res, `"abab"`, "string")
	for _, want := range []string{"printed\n", "to stderr\n", "direct\n", "builtin\n"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output %q lacks %q", res.Output, want)
		}
	}
	wantValue(t, mustEval(t, m, "", "p"), "{A:1 B:2}", "struct { A int; B int }")
	wantValue(t, mustEval(t, m, "", `import "strings"`+"\n"+`strings.ToUpper("again")`), `"AGAIN"`, "string")
}

func TestEvalKeepsStateAndReportsNoValueForStatements(t *testing.T) {
	m := newTestManager(t, nil)
	if res := mustEval(t, m, "", "y := 40\nfunc inc(n int) int { return n + 1 }"); res.Value != "" || res.Err != "" {
		t.Fatalf("a statement has no value: %+v", res)
	}
	wantValue(t, mustEval(t, m, "", "inc(y) + 1"), "42", "int")
	if res := mustEval(t, m, "", "undefinedThing + 1"); !strings.Contains(res.Err, "undefined") {
		t.Fatalf("want a compile error, got %+v", res)
	}
	wantValue(t, mustEval(t, m, "", "y"), "40", "int")
}

func TestEvalPanicKeepsTheWorker(t *testing.T) {
	m := newTestManager(t, nil)
	mustEval(t, m, "", "z := 7")
	res := mustEval(t, m, "", `panic("boom")`)
	if res.Err != "panic: boom" {
		t.Fatalf("want the panic message, got %+v", res)
	}
	wantValue(t, mustEval(t, m, "", "z"), "7", "int")
}

func TestEvalDeadlineKillsAndRestartsFresh(t *testing.T) {
	m := newTestManager(t, nil)
	mustEval(t, m, "", "kept := 1")
	start := time.Now()
	_, err := m.Eval(context.Background(), "", "for {}", time.Second)
	late := time.Since(start) - time.Second
	if !errors.Is(err, ErrDeadline) || !strings.Contains(err.Error(), "state was lost") {
		t.Fatalf("want a deadline error saying the state was lost, got %v", err)
	}
	if late > 500*time.Millisecond {
		t.Fatalf("the answer came %s after the deadline", late)
	}
	res := mustEval(t, m, "", "kept")
	if !strings.Contains(res.Err, "undefined: kept") {
		t.Fatalf("a fresh worker must not know kept: %+v", res)
	}
	wantValue(t, mustEval(t, m, "", "1+1"), "2", "int")
}

func TestEvalOsExitIsDeath(t *testing.T) {
	m := newTestManager(t, nil)
	_, err := m.Eval(context.Background(), "", "import \"os\"\nos.Exit(3)", 10*time.Second)
	if !errors.Is(err, ErrDied) || !strings.Contains(err.Error(), "the evaluator died (exit status 3)") {
		t.Fatalf("want died with exit status 3, got %v", err)
	}
	if st := m.Status()[0]; st.State != StateDead {
		t.Fatalf("status after death: %+v", st)
	}
	wantValue(t, mustEval(t, m, "", "2*3"), "6", "int")
}

func TestEvalSelectionsRunConcurrently(t *testing.T) {
	m := newTestManager(t, map[string]projconf.Selection{"other": {}})
	code := "import \"time\"\ntime.Sleep(700 * time.Millisecond)\n1"
	for _, sel := range []string{"default", "other"} { // warm both
		mustEval(t, m, sel, "0")
	}
	start := time.Now()
	var wg sync.WaitGroup
	for _, sel := range []string{"default", "other"} {
		wg.Go(func() { wantValue(t, mustEval(t, m, sel, code), "1", "int") })
	}
	wg.Wait()
	if d := time.Since(start); d > 1300*time.Millisecond {
		t.Fatalf("two 700ms evaluations on two selections took %s: not concurrent", d)
	}
}

func TestEvalBusySelection(t *testing.T) {
	m := newTestManager(t, nil)
	mustEval(t, m, "", "0")
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.Eval(context.Background(), "", "import \"time\"\ntime.Sleep(time.Second)", 10*time.Second)
	}()
	waitState(t, m, "default", StateRunning)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := m.Eval(ctx, "", "1", time.Second)
	if !errors.Is(err, errdefs.ErrBusy) {
		t.Fatalf("want busy, got %v", err)
	}
	<-done
}

func TestStopInterrupts(t *testing.T) {
	m := newTestManager(t, nil)
	if err := m.Stop(""); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("stop with nothing running: %v", err)
	}
	mustEval(t, m, "", "0")
	errc := make(chan error, 1)
	go func() {
		_, err := m.Eval(context.Background(), "", "for {}", 30*time.Second)
		errc <- err
	}()
	waitState(t, m, "default", StateRunning)
	if err := m.Stop(""); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "stopped") {
			t.Fatalf("want stopped, got %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Stop did not interrupt the evaluation")
	}
	wantValue(t, mustEval(t, m, "", "1"), "1", "int")
}

func TestRestartAndStatus(t *testing.T) {
	m := newTestManager(t, map[string]projconf.Selection{"b": {}})
	if st := m.Status(); len(st) != 2 || st[0].Selection != "default" || st[0].State != StateStopped {
		t.Fatalf("initial status %+v", st)
	}
	mustEval(t, m, "", "r := 1")
	st := m.Status()[0]
	if st.State != StateIdle || st.PID == 0 || st.Evaluations != 1 {
		t.Fatalf("status after one evaluation %+v", st)
	}
	if err := m.Restart(""); err != nil {
		t.Fatal(err)
	}
	if res := mustEval(t, m, "", "r"); !strings.Contains(res.Err, "undefined") {
		t.Fatalf("state survived a restart: %+v", res)
	}
	if _, err := m.Eval(context.Background(), "nope", "1", 0); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("unknown selection: %v", err)
	}
}

func TestSelectionTagsEnvAndPreload(t *testing.T) {
	sel := projconf.Selection{Tags: []string{"special"}, Env: map[string]string{"DEMO_MODE": "on"}, Preload: []string{"example.com/demo/calc"}}
	m := newTestManager(t, map[string]projconf.Selection{"special": sel})
	wantValue(t, mustEval(t, m, "special", "calc.Special()"), `"special"`, "string")
	wantValue(t, mustEval(t, m, "special", "import \"os\"\nos.Getenv(\"DEMO_MODE\")"), `"on"`, "string")
	res := mustEval(t, m, "", "import \"example.com/demo/calc\"\ncalc.Special()")
	if !strings.Contains(res.Err, "Special") {
		t.Fatalf("the default selection has no special tag, got %+v", res)
	}
}

func TestOutputIsCapped(t *testing.T) {
	m := newTestManager(t, nil)
	res := mustEval(t, m, "", "import \"strings\"\nimport \"fmt\"\nfmt.Print(strings.Repeat(\"x\", 3<<20))")
	if len(res.Output) != MaxOutputBytes || !strings.Contains(strings.Join(res.Notes, ";"), "output cut") {
		t.Fatalf("output %d bytes, notes %v", len(res.Output), res.Notes)
	}
	if res := mustEval(t, m, "", "fmt.Print(\"small\")"); res.Output != "small" {
		t.Fatalf("the next output must start afresh: %q", res.Output)
	}
}

func TestCloseKillsWorkers(t *testing.T) {
	m := newTestManager(t, nil)
	mustEval(t, m, "", "0")
	pid := m.Status()[0].PID
	m.Close()
	if _, err := m.Eval(context.Background(), "", "1", 0); !errors.Is(err, ErrClosed) {
		t.Fatalf("eval after close: %v", err)
	}
	if processAlive(pid) {
		t.Fatalf("worker %d survived Close", pid)
	}
}

// waitState polls Status until sel is in state, for up to 5 s.
func waitState(t *testing.T, m *Manager, sel string, want State) {
	t.Helper()
	testfix.Wait(t, 30*time.Second, fmt.Sprintf("selection %s never reached %s", sel, want), func() bool {
		for _, st := range m.Status() {
			if st.Selection == sel && st.State == want {
				return true
			}
		}
		return false
	})
}

func TestSetSelectionsAddsAndRemoves(t *testing.T) {
	m := NewManager(ManagerOptions{Root: t.TempDir(), WorkerCommand: testWorkerCommand})
	defer m.Close()
	if err := m.Restart("extra"); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("unknown selection: %v", err)
	}
	m.SetSelections(map[string]projconf.Selection{"extra": {Tags: []string{"x"}}})
	if err := m.Restart("extra"); err != nil {
		t.Fatalf("after SetSelections: %v", err)
	}
	if err := m.Restart("default"); err != nil {
		t.Fatalf("default was dropped: %v", err)
	}
	m.SetSelections(nil)
	if err := m.Restart("extra"); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("removed selection still there: %v", err)
	}
}

func TestWorkersRunBelowTheWindow(t *testing.T) {
	m := NewManager(ManagerOptions{Root: t.TempDir(), WorkerCommand: testWorkerCommand})
	defer m.Close()
	if _, err := m.Eval(context.Background(), "", "1", 0); err != nil {
		t.Fatal(err)
	}
	pid := m.Status()[0].PID
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Skip("no /proc here: ", err)
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	if nice := fields[16]; nice != fmt.Sprint(workerNiceness) { // field 19 of stat, counted after the command
		t.Fatalf("worker %d runs at nice %s, want %d", pid, nice, workerNiceness)
	}
}
