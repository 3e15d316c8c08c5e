package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

type opened struct {
	rel  string
	line int
}

func newTestRunPane(t *testing.T, files map[string]string) (*runPane, *[]opened) {
	t.Helper()
	test.NewTempApp(t)
	p := newProject(t, files)
	var got []opened
	r := newRunPane(p.Root, func(rel string, line int) { got = append(got, opened{rel, line}) }, func(base string) []string {
		files, _, _ := p.ListFiles(context.Background(), "", base, 2)
		return files
	})
	r.tick = func(func()) func() { return func() {} } // no ticking goroutine beside the test
	w := test.NewTempWindow(t, r.content)
	w.Resize(fyne.NewSize(900, 400))
	return r, &got
}

// tapAt taps the grid at a row and column.
func tapAt(r *runPane, row, col int) {
	pos := r.grid.PositionForCursorLocation(row, col)
	r.grid.Tapped(&fyne.PointEvent{Position: pos.AddXY(2, 2)})
}

func TestRunPaneOpensFileReferences(t *testing.T) {
	r, got := newTestRunPane(t, map[string]string{"calc/calc_test.go": "package calc\n", "main.go": "package main\n",
		"deep/er/lone.go": "package er\n", "a/doc.go": "package a\n", "b/doc.go": "package b\n"})
	r.begin("$ go test ./...")
	r.out.append(
		"--- FAIL: TestAdd (0.00s)",
		"    calc_test.go:7: want 3",          // 2: package-relative, placed by line 4
		"FAIL",                                // 3
		"calc/calc_test.go:9:2: undefined: x", // 4
		"\t"+filepath.Join(r.root, "main.go")+":3 +0x1d", // 5: a stack line with an absolute path
		"../../etc/passwd.go:1: nope",                    // 6: outside the project
		"lone.go:4: only one file has this name",         // 7
		"doc.go:1: two files have this name",             // 8
	)
	tapAt(r, 2, 6)  // on "calc_test.go:7"
	tapAt(r, 4, 0)  // on "calc/calc_test.go:9:2"
	tapAt(r, 5, 6)  // inside the absolute path (after the tab, 4 columns)
	tapAt(r, 6, 3)  // outside the project: nothing
	tapAt(r, 1, 3)  // no reference on the line
	tapAt(r, 2, 20) // past the reference
	tapAt(r, 7, 1)  // the only lone.go
	tapAt(r, 8, 1)  // a doc.go, but which: nothing
	want := []opened{{"calc/calc_test.go", 7}, {"calc/calc_test.go", 9}, {"main.go", 3}, {"deep/er/lone.go", 4}}
	if len(*got) != len(want) {
		t.Fatalf("opened %v, want %v", *got, want)
	}
	for i := range want {
		if (*got)[i] != want[i] {
			t.Errorf("tap %d opened %v, want %v", i, (*got)[i], want[i])
		}
	}
	if c := r.grid.Rows[2].Cells[4]; c.Style == nil {
		t.Error("a file reference is not styled as a link")
	}
	if c := r.grid.Rows[1].Cells[0]; c.Style != nil {
		t.Error("a line with no reference is styled")
	}
}

func TestRunPaneShowsStateAndKeepsEarlierRuns(t *testing.T) {
	r, _ := newTestRunPane(t, map[string]string{"go.mod": "module x\n"})
	r.begin("$ go build ./...    [run-1, you]")
	if !r.spinner.Visible() || !strings.HasPrefix(r.state.Text, "Running go build ./...") {
		t.Fatalf("while running: spinner %v, state %q", r.spinner.Visible(), r.state.Text)
	}
	r.out.append("first output")
	r.end("[run-1 passed: exit code 0, 1.2s]")
	if r.spinner.Visible() || !strings.Contains(r.state.Text, "run-1 passed") {
		t.Fatalf("after the end: spinner %v, state %q", r.spinner.Visible(), r.state.Text)
	}
	for i := 2; i <= keptRuns+2; i++ {
		r.begin("$ go test ./...    [run-" + string(rune('0'+i)) + ", you]")
		r.out.append("output of run " + string(rune('0'+i)))
		r.end("[done]")
	}
	if n := len(r.history.Options); n != keptRuns {
		t.Fatalf("the picker keeps %d runs, want %d", n, keptRuns)
	}
	r.history.SetSelected(r.history.Options[len(r.history.Options)-1]) // the oldest kept
	if text := r.out.text(0); !strings.Contains(text, "output of run 2") {
		t.Errorf("picking the oldest kept run shows:\n%s", text)
	}
}

// TestRunOutputExpandsTabs: a stack line's tab is spaces, so nothing after
// it is drawn over (TextGrid wants a tab's padding cells after it).
func TestRunOutputExpandsTabs(t *testing.T) {
	r, _ := newTestRunPane(t, nil)
	r.out.append("\t/home/x/main.go:3 +0x1d")
	if got := r.grid.RowText(0); got != "    /home/x/main.go:3 +0x1d" {
		t.Errorf("the grid shows %q", got)
	}
}
