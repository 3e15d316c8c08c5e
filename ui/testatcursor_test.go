package ui

import (
	"strings"
	"testing"

	"trestle/app/services"
	"trestle/app/task"
	"trestle/app/textbuf"
)

// TestTestAtCursorRunsOnlyThatTest runs a real go test: TestFails fails,
// TestPasses passes. With the caret in TestPasses only it runs (the run
// passes); outside any test, every test runs (and fails).
func TestTestAtCursorRunsOnlyThatTest(t *testing.T) {
	test := "package calc\n\nimport \"testing\"\n\nfunc TestFails(t *testing.T) { t.Fatal(\"boom\") }\n\nfunc TestPasses(t *testing.T) {\n\tt.Log(\"fine\")\n}\n"
	w := newTestWindowWith(t, map[string]string{
		"go.mod":            "module example.com/calc\n\ngo 1.22\n",
		"calc/calc.go":      "package calc\n",
		"calc/calc_test.go": test,
	})
	w.SetServices(services.Services{Tasks: task.NewRunner(w.project.Root)})
	e := openEditor(t, w, "calc/calc_test.go")

	e.setCaret(textbuf.Pos{Line: 7}, false) // inside TestPasses
	w.testAtCursor()
	w.loading.Wait()
	out := w.panes.run.text(0)
	if !strings.Contains(out, "ok") || strings.Contains(out, "FAIL") || !strings.Contains(out, "-run ^TestPasses$ ./calc") {
		t.Fatalf("the caret in TestPasses ran:\n%s\nwant go test -run ^TestPasses$ ./calc, passing", out)
	}

	e.setCaret(textbuf.Pos{Line: 1}, false) // between functions
	w.testAtCursor()
	w.loading.Wait()
	if out := w.panes.run.text(0); !strings.Contains(out, "boom") {
		t.Fatalf("the caret outside a test should run every test (TestFails fails):\n%s", out)
	}
}
