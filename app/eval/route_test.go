package eval

import (
	"context"
	"strings"
	"testing"
	"time"
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
	deadline := time.Now().Add(time.Minute)
	for m.Stop("") != nil {
		if time.Now().After(deadline) {
			t.Fatal("the compiled run never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
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
