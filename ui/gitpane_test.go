package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/gitstatus"
	"trestle/app/textbuf"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestChangesPaneListsWhatGitSees drives the Changes pane over a real git
// repository: a modified, a deleted and an untracked file are listed with
// the branch; the tree tints them; a click shows the diff against HEAD.
func TestChangesPaneListsWhatGitSees(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	w := newTestWindowWith(t, map[string]string{
		"go.mod": "module m\n", "calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b }\n", "gone.go": "package m\n",
	})
	root := w.project.Root
	git(t, root, "init", "-q")
	git(t, root, "add", ".")
	git(t, root, "commit", "-qm", "one")
	os.WriteFile(filepath.Join(root, "calc", "calc.go"), []byte("package calc\n\nfunc Add(a, b int) int { return a - b }\n"), 0o644)
	os.Remove(filepath.Join(root, "gone.go"))
	os.WriteFile(filepath.Join(root, "new.go"), []byte("package m\n"), 0o644)
	w.Window().Resize(fyne.NewSize(1000, 700))
	w.installActions(Actions{})
	w.git.refresh() // as Watch does (inline in tests)

	g := w.panes.git
	got := map[string]string{}
	for _, e := range g.entries {
		got[e.path] = e.what()
	}
	want := map[string]string{"calc/calc.go": "modified", "gone.go": "deleted", "new.go": "untracked"}
	if len(got) != len(want) {
		t.Fatalf("the pane lists %v, want %v", got, want)
	}
	for p, what := range want {
		if got[p] != what {
			t.Errorf("%s is %q, want %q", p, got[p], what)
		}
	}
	if !strings.HasPrefix(g.head.Text, "main — 3 changed files") || w.status.branch.Text != "⎇ main" {
		t.Errorf("head %q, status branch %q", g.head.Text, w.status.branch.Text)
	}
	if w.files.changed["calc/calc.go"] != widget.WarningImportance || w.files.changed["calc"] != widget.WarningImportance ||
		w.files.changed["new.go"] != widget.SuccessImportance {
		t.Errorf("tree tints %v", w.files.changed)
	}

	for i, e := range g.entries {
		if e.path == "calc/calc.go" {
			g.list.Select(i)
		}
	}
	var shown string
	for _, o := range w.win.Canvas().Overlays().List() {
		shown += strings.Join(labelTexts(o), "\n") + gridTexts(o)
	}
	if !strings.Contains(shown, "-func Add(a, b int) int { return a + b }") || !strings.Contains(shown, "+func Add(a, b int) int { return a - b }") {
		t.Errorf("the diff dialog shows:\n%s", shown)
	}
}

// gridTexts is the text of the text grids in o.
func gridTexts(o fyne.CanvasObject) string {
	var b strings.Builder
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *widget.TextGrid:
			b.WriteString(v.Text() + "\n")
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(v).Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	return b.String()
}

// TestGutterMarksLinesChangedAgainstHEAD: an open file's gutter marks the
// lines that differ from HEAD, and follows the person's typing.
func TestGutterMarksLinesChangedAgainstHEAD(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n\nfunc A() int {\n\treturn 1\n}\n"})
	root := w.project.Root
	git(t, root, "init", "-q")
	git(t, root, "add", ".")
	git(t, root, "commit", "-qm", "one")
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n\nfunc A() int {\n\treturn 2\n}\n"), 0o644)
	e := openEditor(t, w, "a.go") // reads HEAD's text (inline in tests)
	if e.GitMarks()[3] != gitstatus.Modified || len(e.GitMarks()) != 1 {
		t.Fatalf("marks %v, want line 4 modified", e.GitMarks())
	}
	rows := gridRows(t, e)
	if r := rows[3].Cells[gutterWidth(e.Buffer().LineCount())-2].Rune; r != '▌' {
		t.Errorf("line 4's gutter shows %q, want the modified bar", r)
	}
	e.SetCaret(textbuf.Pos{Line: 5})
	test.Type(e.Page(), "// more")
	w.git.markChanges(w.tabs.find("a.go")) // what the debounce does, here at once
	if e.GitMarks()[5] != gitstatus.Added {
		t.Errorf("after typing a new line, marks %v; want line 6 added", e.GitMarks())
	}
}
