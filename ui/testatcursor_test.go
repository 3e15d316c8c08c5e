package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"trestle/app/projconf"
	"trestle/app/task"
	"trestle/app/textbuf"
)

// TestTestAtCursorRunsOnlyThatTest runs a real go test with what Ctrl+Shift+T
// asks for: TestFails fails, TestPasses passes. With the caret in
// TestPasses only it runs, and the run passes; outside any test, every test
// runs (and fails). The run goes straight to the runner: the test driver
// would run the Run pane's fyne.Do calls on two goroutines at once.
func TestTestAtCursorRunsOnlyThatTest(t *testing.T) {
	src := "package calc\n\nimport \"testing\"\n\nfunc TestFails(t *testing.T) { t.Fatal(\"boom\") }\n\nfunc TestPasses(t *testing.T) {\n\tt.Log(\"fine\")\n}\n"
	w := newTestWindowWith(t, map[string]string{
		"go.mod":            "module example.com/calc\n\ngo 1.22\n",
		"calc/calc.go":      "package calc\n",
		"calc/calc_test.go": src,
	})
	e := openEditor(t, w, "calc/calc_test.go")
	e.SetCaret(textbuf.Pos{Line: 7}) // inside TestPasses
	args, name := w.run.testAtCursorArgs()
	if name != "TestPasses" || !slices.Equal(args, []string{"-run", "^TestPasses$", "./calc"}) {
		t.Fatalf("caret in TestPasses: args %q for %q", args, name)
	}
	if code, out := runTest(t, w.project.Root, args); code != 0 || strings.Contains(out, "boom") {
		t.Fatalf("go test %q exited %d:\n%s\nwant only TestPasses, passing", args, code, out)
	}
	e.SetCaret(textbuf.Pos{Line: 1}) // between functions
	if args, name := w.run.testAtCursorArgs(); args != nil || name != "" {
		t.Fatalf("caret outside a test: args %q for %q, want none (every test)", args, name)
	}
	if code, out := runTest(t, w.project.Root, nil); code == 0 || !strings.Contains(out, "boom") {
		t.Fatalf("every test exited %d:\n%s\nwant TestFails to fail", code, out)
	}
}

func runTest(t *testing.T, root string, args []string) (int, string) {
	t.Helper()
	conf := projconf.Defaults()
	tk, _ := conf.Task("test")
	s, _ := conf.Selection("default")
	var out strings.Builder
	lines := make(chan string, 1024)
	run, err := task.NewRunner(root).Start(context.Background(), tk, args, s, func(l task.Line) { lines <- l.Text })
	if err != nil {
		t.Fatal(err)
	}
	<-run.Done()
	close(lines)
	for l := range lines {
		out.WriteString(l + "\n")
	}
	return run.ExitCode(), out.String()
}
