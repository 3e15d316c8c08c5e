package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/textbuf"
	"trestle/app/watch"
)

// writeDisk writes rel in w's project as another program would.
func writeDisk(t *testing.T, w *Window, rel, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(w.project.Root, rel), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// diskEvent tells w that rel changed, as the watcher would, and waits for
// the reads it starts.
func diskEvent(w *Window, rel string, op watch.Op) {
	w.onFilesChanged([]watch.Event{{Path: rel, Op: op}})
	w.loading.Wait()
}

// tapBanner taps the banner button labelled label.
func tapBanner(t *testing.T, e *editor, label string) {
	t.Helper()
	for _, o := range e.banner.buttons.Objects {
		if b := o.(*widget.Button); b.Text == label {
			test.Tap(b)
			return
		}
	}
	t.Fatalf("no %q button on the banner %q", label, e.banner.shown())
}

func TestReloadUnmodifiedEditor(t *testing.T) {
	w := newTestWindow(t)
	e := openEditor(t, w, "main.go")
	e.moveTo(textbuf.Pos{Line: 5, Col: 3}, false)
	changed := strings.Replace(mainGo, "hi", "hello", 1)
	writeDisk(t, w, "main.go", changed)
	diskEvent(w, "main.go", watch.Created) // an atomic save by another program
	if e.buf.FileText() != changed {
		t.Fatalf("text after the change on disk = %q", e.buf.FileText())
	}
	if e.buf.Modified() || w.tabs.find("main.go").dirty() {
		t.Error("a reload marked the editor modified")
	}
	if e.caret.Line != 5 {
		t.Errorf("caret on line %d after the reload, want 5", e.caret.Line)
	}
	if msg := e.banner.shown(); msg != "" {
		t.Errorf("banner %q over a reloaded editor", msg)
	}
	writeDisk(t, w, "main.go", "package main\n")
	diskEvent(w, watch.All, watch.Changed)
	if e.buf.Text() != "package main\n" || e.caret.Line != 1 {
		t.Errorf("after watch.All: text %q, caret line %d", e.buf.Text(), e.caret.Line)
	}
}

func TestReloadModifiedEditorAsks(t *testing.T) {
	w := newTestWindow(t)
	e := openEditor(t, w, "main.go")
	test.Type(e.page, "// mine\n")
	writeDisk(t, w, "main.go", "package main // theirs\n")
	diskEvent(w, "main.go", watch.Changed)
	if got := e.banner.shown(); got != "main.go changed on disk" {
		t.Fatalf("banner = %q", got)
	}
	if !strings.HasPrefix(e.buf.Text(), "// mine\n") {
		t.Fatal("a change on disk replaced unsaved text")
	}
	tapBanner(t, e, "Keep mine")
	if e.banner.shown() != "" || !strings.HasPrefix(e.buf.Text(), "// mine\n") || !e.buf.Modified() {
		t.Errorf("Keep mine: banner %q, text %q, modified %v", e.banner.shown(), e.buf.Text(), e.buf.Modified())
	}
	writeDisk(t, w, "main.go", "package main // theirs again\n")
	diskEvent(w, "main.go", watch.Changed)
	tapBanner(t, e, "Reload")
	if e.buf.Text() != "package main // theirs again\n" || e.buf.Modified() {
		t.Errorf("Reload: text %q, modified %v", e.buf.Text(), e.buf.Modified())
	}
	if e.banner.shown() != "" {
		t.Error("the banner stays after Reload")
	}
}

func TestReloadIgnoresOwnSave(t *testing.T) {
	w := newTestWindow(t)
	e := openEditor(t, w, "main.go")
	test.Type(e.page, "// saved\n")
	w.tabs.saveActive()
	w.tabs.saving.Wait()
	test.Type(e.page, "// typed after the save\n")
	diskEvent(w, "main.go", watch.Created) // the watcher sees our rename
	if msg := e.banner.shown(); msg != "" {
		t.Errorf("our own save showed the banner %q", msg)
	}
	if !strings.Contains(e.buf.Text(), "typed after the save") {
		t.Error("our own save reloaded the editor")
	}
}

func TestReloadDeletedFile(t *testing.T) {
	w := newTestWindow(t)
	e := openEditor(t, w, "lib/lib.go")
	if err := os.Remove(filepath.Join(w.project.Root, "lib/lib.go")); err != nil {
		t.Fatal(err)
	}
	diskEvent(w, "lib", watch.Removed) // the folder went
	if got := e.banner.shown(); got != "lib.go was deleted on disk" {
		t.Fatalf("banner = %q", got)
	}
	tapBanner(t, e, "Close")
	if w.tabs.find("lib/lib.go") != nil {
		t.Error("Close left the tab open")
	}
}

func TestReloadLeavesOtherTabs(t *testing.T) {
	w := newTestWindow(t)
	e := openEditor(t, w, "main.go")
	test.Type(e.page, "x")
	writeDisk(t, w, "go.mod", "module example.com/other\n")
	diskEvent(w, "go.mod", watch.Changed)
	if e.banner.shown() != "" || e.buf.Text() != "x"+mainGo {
		t.Error("a change to another file touched main.go's editor")
	}
}

func TestStatusShowsCaret(t *testing.T) {
	w := newTestWindow(t)
	e := openEditor(t, w, "main.go")
	if got := w.status.cursor.Text; got != "Ln 1, Col 1" {
		t.Errorf("status cursor after opening the first tab = %q", got)
	}
	e.moveTo(textbuf.Pos{Line: 4, Col: 2}, false)
	if got := w.status.cursor.Text; got != "Ln 5, Col 3" {
		t.Errorf("status cursor = %q, want Ln 5, Col 3", got)
	}
	if err := w.Open(context.Background(), "go.mod", 0); err != nil {
		t.Fatal(err)
	}
	if got := w.status.cursor.Text; got != "Ln 1, Col 1" {
		t.Errorf("status cursor after switching tabs = %q", got)
	}
	w.closeActiveTab()
	w.closeActiveTab()
	if got := w.status.cursor.Text; got != "" {
		t.Errorf("status cursor with no editor = %q", got)
	}
}

func TestEditMenuActsOnFocus(t *testing.T) {
	w := newTestWindow(t)
	w.SetActions(Actions{})
	e := openEditor(t, w, "main.go")
	menus := map[string]*fyne.Menu{}
	for _, m := range w.win.MainMenu().Items {
		menus[m.Label] = m
	}
	var file, edit []string
	for _, it := range menus["File"].Items {
		file = append(file, it.Label)
	}
	for _, it := range menus["Edit"].Items {
		if it.Shortcut == nil && !it.IsSeparator {
			t.Errorf("Edit > %s shows no shortcut", it.Label)
		}
		edit = append(edit, it.Label)
	}
	if got := strings.Join(file, ","); !strings.Contains(got, "Open Recent,Go to File…,,Save,Save All,Close Tab") {
		t.Errorf("File menu = %s", got)
	}
	if w.win.MainMenu().Items[1].Label != "Edit" {
		t.Error("Edit is not the second menu")
	}
	test.Type(e.page, "abc")
	run := func(label string) {
		for _, it := range menus["Edit"].Items {
			if it.Label == label {
				it.Action()
				return
			}
		}
		t.Fatalf("no Edit > %s", label)
	}
	run("Undo")
	if e.buf.Text() != mainGo {
		t.Errorf("Edit > Undo left %q", e.buf.Text()[:10])
	}
	run("Select All")
	if e.selectedText() != mainGo {
		t.Error("Edit > Select All did not select the text")
	}
}

func TestSettingsTabWidthApplies(t *testing.T) {
	w := newTestWindow(t)
	s := w.settings
	s.TabWidth = 2
	w.SetSettings(s, "")
	e := openEditor(t, w, "main.go")
	if e.tabWidth != 2 {
		t.Errorf("new editor tab width %d, want 2", e.tabWidth)
	}
	s.TabWidth = 8
	w.applySettings(s, "")
	if e.tabWidth != 8 {
		t.Errorf("open editor tab width %d after Settings, want 8", e.tabWidth)
	}
}
