package ui

import (
	"os/exec"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"trestle/app/project"
	"trestle/app/watch"
	"trestle/internal/testfix"
)

// syncSearch makes s search inline: Fyne's test driver runs fyne.Do on
// the calling goroutine, so a search on a goroutine would touch the list
// beside the test.
func syncSearch(s *searchPane) { s.async = func(fn func()) { fn() } }

func TestSearchPaneFindsAndOpens(t *testing.T) {
	w := newTestWindow(t)
	w.installActions(Actions{})
	w.Window().Resize(fyne.NewSize(900, 600))
	s := w.panes.search
	syncSearch(s)
	openEditor(t, w, "lib/lib.go")
	w.showSearch()
	if w.panes.tabs.Selected() != w.panes.item(w.panes.search) || w.win.Canvas().Focused() != s.pattern {
		t.Fatal("Ctrl+Shift+F did not show the Search pane with the keyboard in its pattern")
	}
	test.Type(s.pattern, "PRINTLN")
	s.pattern.OnSubmitted(s.pattern.Text)
	if len(s.rows) != 2 || !s.rows[0].head || s.rows[0].path != "main.go" || s.rows[1].match.Line != 6 {
		t.Fatalf("rows = %+v, want main.go's heading and its line 6 (case ignored)", s.rows)
	}
	s.list.Select(1)
	w.loading.Wait()
	if e := w.tabs.activeEditor(); w.tabs.active() != "main.go" || e.Caret().Line != 5 {
		t.Errorf("a click opened %q at line %d, want main.go at 6", w.tabs.active(), caretLine(e))
	}

	s.matchCase.SetChecked(true)
	if len(s.rows) != 0 || !strings.HasPrefix(s.status.Text, "No matches") {
		t.Errorf("Match case: rows %+v, status %q; want none", s.rows, s.status.Text)
	}
	s.pattern.SetText(`^package \w+$`)
	s.regexp.SetChecked(true)
	if files := headings(s); strings.Join(files, " ") != "lib/lib.go main.go" {
		t.Errorf("regexp matched files %v, want lib/lib.go and main.go", files)
	}
	s.glob.SetText("lib/*")
	s.glob.OnSubmitted(s.glob.Text)
	if files := headings(s); strings.Join(files, " ") != "lib/lib.go" {
		t.Errorf("glob lib/* matched files %v, want lib/lib.go", files)
	}
	s.pattern.SetText(`(`)
	s.search()
	if len(s.rows) != 0 || !strings.Contains(s.status.Text, "Search:") {
		t.Errorf("a bad regexp: rows %+v, status %q; want the error shown", s.rows, s.status.Text)
	}
}

// TestSearchPaneIgnoresWhatTheProjectIgnores: the pane skips what the
// project's one .gitignore matcher skips (the one trestle_search and the
// file tree use), which reads each ignore file once and reads it again
// when the watcher reports it changed. It used to read the ignore files
// anew for each search, so it and the agent's search could disagree.
func TestSearchPaneIgnoresWhatTheProjectIgnores(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{
		"go.mod":     "module example.com/demo\n",
		".gitignore": "gen/\n",
		"main.go":    "package main // NEEDLE\n",
		"gen/out.go": "package gen // NEEDLE\n",
	})
	w.installActions(Actions{})
	s := w.panes.search
	syncSearch(s)
	s.pattern.SetText("NEEDLE")
	found := func(when string, want string) {
		t.Helper()
		s.search()
		if got := strings.Join(headings(s), " "); got != want {
			t.Errorf("%s: the pane found NEEDLE in %q (status %q), want %q", when, got, s.status.Text, want)
		}
	}
	found("gen/ in .gitignore", "main.go")
	testfix.WriteFiles(t, w.project.Root, map[string]string{".gitignore": "# nothing ignored\n"})
	found(".gitignore changed, the watcher not yet heard", "main.go")
	w.project.Ignore().Saw([]watch.Event{{Path: ".gitignore", Op: watch.Changed}})
	found("the watcher reported .gitignore changed", "gen/out.go main.go")
}

// TestSearchPaneOnBbolt searches a real module nobody here wrote: bbolt
// from the module cache (a dependency of Trestle, so always there).
func TestSearchPaneOnBbolt(t *testing.T) {
	test.NewTempApp(t)
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "go.etcd.io/bbolt").Output()
	if err != nil {
		t.Fatalf("go list -m go.etcd.io/bbolt: %v", err)
	}
	root := strings.TrimSpace(string(out))
	var opened string
	p, err := project.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	s := newSearchPane(p, func(rel string, line int) { opened = rel })
	syncSearch(s)
	s.regexp.SetChecked(true)
	s.glob.SetText("*.go")
	s.pattern.SetText(`func \(db \*DB\) Update\(`)
	s.search()
	if files := headings(s); len(files) != 1 || files[0] != "db.go" {
		t.Fatalf("DB.Update found in %v (status %q), want db.go", files, s.status.Text)
	}
	s.list.Select(1)
	if opened != "db.go" {
		t.Errorf("a click opened %q, want db.go", opened)
	}
	s.regexp.SetChecked(false)
	s.pattern.SetText("bolt.Open(")
	s.search()
	if n := len(headings(s)); n < 5 {
		t.Errorf("bolt.Open( is in %d files of bbolt, want many (status %q)", n, s.status.Text)
	}
}

func headings(s *searchPane) []string {
	var out []string
	for _, r := range s.rows {
		if r.head {
			out = append(out, r.path)
		}
	}
	return out
}

// TestReplaceInFilesEditsTheBuffers: Replace All changes every matching
// file in its editor (opening the ones not open), unsaved, one undo step
// each; the disk keeps what it had until the person saves.
func TestReplaceInFilesEditsTheBuffers(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{
		"a.go": "package a\n\nfunc OldName() {}\n\nvar _ = OldName\n",
		"b.go": "package a\n\nvar x = OldName\n",
		"c.go": "package a\n",
	})
	w.Window().Resize(fyne.NewSize(1000, 700))
	s := w.panes.search
	syncSearch(s)
	b := openEditor(t, w, "b.go")
	b.SetCaret(b.Buffer().End())
	test.Type(b.Page(), "// mine\n") // unsaved, kept
	s.pattern.SetText("OldName")
	s.search()
	s.replace.SetText("NewName")
	s.replaceAll()
	ok := buttonIn(w.win.Canvas().Overlays().Top(), "Replace All")
	if ok == nil {
		t.Fatal("no confirmation with a Replace All button")
	}
	test.Tap(ok)
	w.loading.Wait()

	a := w.tabs.find("a.go")
	if a == nil || a.view == nil {
		t.Fatal("a.go was not opened")
	}
	if got := a.view.Buffer().Text(); got != "package a\n\nfunc NewName() {}\n\nvar _ = NewName\n" || !a.dirty() {
		t.Errorf("a.go's editor: dirty %v\n%s", a.dirty(), got)
	}
	if got := b.Buffer().Text(); got != "package a\n\nvar x = NewName\n// mine\n" {
		t.Errorf("b.go's editor (with the person's unsaved line):\n%s", got)
	}
	if w.tabs.find("c.go") != nil {
		t.Error("c.go, without a match, was opened")
	}
	if disk := readProject(t, w, "a.go"); disk != "package a\n\nfunc OldName() {}\n\nvar _ = OldName\n" {
		t.Errorf("a.go was written:\n%s", disk)
	}
	a.view.Undo()
	if got := a.view.Buffer().Text(); got != "package a\n\nfunc OldName() {}\n\nvar _ = OldName\n" {
		t.Errorf("one undo in a.go gave:\n%s", got)
	}
}
