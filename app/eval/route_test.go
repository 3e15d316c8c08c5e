package eval

import (
	"context"
	"strings"
	"testing"
	"time"
	"trestle/internal/testfix"
)

// TestEvalRoutesToCompiledAndBack drives the routing seam through a real
// worker: interpreted input stays interpreted, input the interpreter
// cannot run is compiled (syntactically, or after the interpreter's
// error), and compiled declarations carry over.
func TestEvalRoutesToCompiledAndBack(t *testing.T) {
	m := newTestManager(t, nil)
	res := mustEval(t, m, "", "import \"strings\"\nx := 40\nstrings.ToUpper(\"a\")")
	wantValue(t, res, `"A"`, "string")
	if res.Mode != ModeInterpreted {
		t.Fatalf("mode %q", res.Mode)
	}
	// strings was imported in the interpreter; the compiled input may use it
	res = mustEval(t, m, "", "n := 0\nfor l := range strings.Lines(\"a\\nbb\\n\") { n += len(l) }\nn")
	wantValue(t, res, "5", "int")
	if res.Mode != ModeCompiled {
		t.Fatalf("mode %q notes %v", res.Mode, res.Notes)
	}
	mustEval(t, m, "", "func double(yield func(int) bool) { yield(21) }")
	res = mustEval(t, m, "", "s := 0\nfor v := range double { s += 2 * v }\ns")
	wantValue(t, res, "42", "int")
	// the interpreter's state is untouched by compiled runs
	res = mustEval(t, m, "", "x + 2")
	wantValue(t, res, "42", "int")
	if res.Mode != ModeInterpreted {
		t.Fatalf("mode %q", res.Mode)
	}
	// a compile error in compiled input is at the input's column
	res = mustEval(t, m, "", "for range 3 {}\n   undefinedThing + 1")
	if !strings.HasPrefix(res.Err, "2:4: undefined: undefinedThing") || res.Mode != ModeCompiled {
		t.Fatalf("err %q mode %q", res.Err, res.Mode)
	}
}

// TestEvalStopsAndRestartsCompiled: Stop ends a compiled run; Restart
// forgets compiled declarations.
func TestEvalStopsAndRestartsCompiled(t *testing.T) {
	m := newTestManager(t, nil)
	mustEval(t, m, "", "func each(yield func(int) bool) { yield(1) }")
	done := make(chan Result, 1)
	go func() {
		r, _ := m.Eval(context.Background(), "", "for range each {}\nfor {}", 50*time.Second)
		done <- r
	}()
	testfix.Wait(t, time.Minute, "the compiled run never started", func() bool { return m.Stop("") == nil })
	if r := <-done; !strings.Contains(r.Err, "stopped") {
		t.Fatalf("err %q", r.Err)
	}
	if err := m.Restart(""); err != nil {
		t.Fatal(err)
	}
	res := mustEval(t, m, "", "for range 2 {}\nfor range each {}")
	if !strings.Contains(res.Err, "undefined: each") {
		t.Fatalf("after a restart the compiled declarations are gone: %+v", res)
	}
}

// TestEvalFallsBackToCompiledOnTheInterpretersError: a range over a
// variable holding an iterator cannot be told from syntax; the
// interpreter's error sends the input to compiled, and the note says so.
func TestEvalFallsBackToCompiledOnTheInterpretersError(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/itr\n\ngo 1.23\n",
		"seq/seq.go": "package seq\n\nimport \"iter\"\n\n// Count yields 1..n.\nfunc Count(n int) iter.Seq[int] {\n" +
			"\treturn func(yield func(int) bool) {\n\t\tfor i := 1; i <= n && yield(i); i++ {\n\t\t}\n\t}\n}\n",
	}
	testfix.WriteFiles(t, root, files)
	m := NewManager(ManagerOptions{Root: root, Module: "example.com/itr", WorkerCommand: testWorkerCommand})
	t.Cleanup(m.Close)
	res := mustEval(t, m, "", "import \"example.com/itr/seq\"\nit := seq.Count(3)\ns := 0\nfor v := range it { s += v }\ns")
	wantValue(t, res, "6", "int")
	if res.Mode != ModeCompiled || !strings.Contains(strings.Join(res.Notes, "\n"), "the interpreter could not run this") {
		t.Fatalf("mode %q notes %v", res.Mode, res.Notes)
	}
}
