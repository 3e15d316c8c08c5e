package eval

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestCompiledPanicOfADeclaredTypeReadsAsGoRun (issue 21): an input that
// panics with a value of a type it declares runs compiled (the
// interpreter loses the type's name), and the answer's first line is go
// run's ("panic: main.myType(3)", not "panic: 3"); compiled's
// TestRunCompiledPanicsReadAsGoRun compares these forms with go run.
func TestCompiledPanicOfADeclaredTypeReadsAsGoRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/cpanic\n\ngo 1.23\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := NewManager(ManagerOptions{Root: root, Module: "example.com/cpanic", WorkerCommand: testWorkerCommand})
	t.Cleanup(m.Close)
	addr := regexp.MustCompile(`\b0x[0-9a-f]+\b`)
	for _, c := range []struct{ code, want string }{
		{"type myType int\npanic(myType(3))", "panic: main.myType(3)"},
		{"type pair struct{ a, b int }\npanic(pair{1, 2})", "panic: (main.pair) 0xADDR"},
		// reflect's own panic keeps reflect's words, as under go run (the
		// interpreter's reflect panics are reworded; compiled code's are real).
		{"type cell int\n_ = reflect.ValueOf([]cell{1}).Index(3)", "panic: reflect: slice index out of range"},
	} {
		res, err := m.Eval(context.Background(), "", c.code, time.Minute)
		if err != nil {
			t.Fatalf("%q: %v (notes %v)", c.code, err, res.Notes)
		}
		first, _, _ := strings.Cut(res.Err, "\n")
		if got := addr.ReplaceAllString(atInputLine.ReplaceAllString(first, ""), "0xADDR"); got != c.want || res.Mode != ModeCompiled {
			t.Errorf("%q: %s answer %q, want %q compiled (notes %v)", c.code, res.Mode, res.Err, c.want, res.Notes)
		}
	}
}
