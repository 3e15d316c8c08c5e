package eval

import (
	"strings"
	"testing"

	"trestle/app/projconf"
	"trestle/internal/testfix"
)

// TestFailedImportDoesNotPoisonTheWorker: a package that cannot be
// interpreted fails to import, and afterwards a good package (one the bad
// one had started importing) imports and works, and state defined before
// the failure is still there. Before the probe the second import answered
// "import cycle not allowed".
func TestFailedImportDoesNotPoisonTheWorker(t *testing.T) {
	m := newTestManager(t, nil)
	testfix.WriteFiles(t, m.opts.Root, rawFiles)
	mustEval(t, m, "", "before := 41")
	// The interpreter cannot import it; the compiled path (route.go) may
	// then run the input instead. Either way the interpreter must live on.
	res := mustEval(t, m, "", `import "example.com/demo/raw"`)
	if res.Err == "" && res.Mode != ModeCompiled {
		t.Fatalf("importing a package that uses unsafe should fail in the interpreter, or run compiled: %+v", res)
	}
	res = mustEval(t, m, "", "import \"example.com/demo/calc\"\ncalc.Add(2, 3)")
	wantValue(t, res, "5", "int")
	wantValue(t, mustEval(t, m, "", "before + 1"), "42", "int")
	// The failed package can be tried again and fails the same way, not
	// with a cycle.
	res = mustEval(t, m, "", `import "example.com/demo/raw"`)
	if strings.Contains(res.Err, "cycle") || res.Err == "" && res.Mode != ModeCompiled {
		t.Fatalf("a second try should go as the first (not fail with a cycle): %+v", res)
	}
}

// TestErrorColumnsPointAtTheInput: yaegi wraps statements in a function on
// the input's first line; the columns it reports are moved back.
func TestErrorColumnsPointAtTheInput(t *testing.T) {
	m := newTestManager(t, map[string]projconf.Selection{})
	tests := []struct{ name, code, want string }{
		{"expression", "undefinedThing + 1", "1:1: undefined: undefinedThing"},
		{"after a statement", "x := 1; _ = x; undefinedThing + 1", "1:16: undefined: undefinedThing"},
		{"second line", "y := 2\n_ = y\n  undefinedThing", "3:3: undefined: undefinedThing"},
		{"declaration", "func f() int { return undefinedThing }", "1:23: undefined: undefinedThing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustEval(t, m, "", tt.code)
			if !strings.Contains(res.Err, tt.want) {
				t.Fatalf("error %q should contain %q", res.Err, tt.want)
			}
		})
	}
}
