package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"trestle/app/textbuf"
	"trestle/app/watch"
	"trestle/ui/editor"
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
func tapBanner(t *testing.T, e *editor.Editor, label string) {
	t.Helper()
	if b := buttonIn(e, label); b != nil {
		test.Tap(b)
		return
	}
	t.Fatalf("no %q button on the banner %q", label, e.Banner())
}

func TestReloadUnmodifiedEditor(t *testing.T) {
	w := newTestWindow(t)
	e := openEditor(t, w, "main.go")
	e.SetCaret(textbuf.Pos{Line: 5, Col: 3})
	changed := strings.Replace(mainGo, "hi", "hello", 1)
	writeDisk(t, w, "main.go", changed)
	diskEvent(w, "main.go", watch.Created) // an atomic save by another program
	if e.Buffer().FileText() != changed {
		t.Fatalf("text after the change on disk = %q", e.Buffer().FileText())
	}
	if e.Buffer().Modified() || w.tabs.find("main.go").dirty() {
		t.Error("a reload marked the editor modified")
	}
	if e.Caret().Line != 5 {
		t.Errorf("caret on line %d after the reload, want 5", e.Caret().Line)
	}
	if msg := e.Banner(); msg != "" {
		t.Errorf("banner %q over a reloaded editor", msg)
	}
	writeDisk(t, w, "main.go", "package main\n")
	diskEvent(w, watch.All, watch.Changed)
	if e.Buffer().Text() != "package main\n" || e.Caret().Line != 1 {
		t.Errorf("after watch.All: text %q, caret line %d", e.Buffer().Text(), e.Caret().Line)
	}
}

func TestReloadModifiedEditorAsks(t *testing.T) {
	w := newTestWindow(t)
	e := openEditor(t, w, "main.go")
	test.Type(e.Page(), "// mine\n")
	writeDisk(t, w, "main.go", "package main // theirs\n")
	diskEvent(w, "main.go", watch.Changed)
	if got := e.Banner(); got != "main.go changed on disk" {
		t.Fatalf("banner = %q", got)
	}
	if !strings.HasPrefix(e.Buffer().Text(), "// mine\n") {
		t.Fatal("a change on disk replaced unsaved text")
	}
	tapBanner(t, e, "Keep mine")
	if e.Banner() != "" || !strings.HasPrefix(e.Buffer().Text(), "// mine\n") || !e.Buffer().Modified() {
		t.Errorf("Keep mine: banner %q, text %q, modified %v", e.Banner(), e.Buffer().Text(), e.Buffer().Modified())
	}
	writeDisk(t, w, "main.go", "package main // theirs again\n")
	diskEvent(w, "main.go", watch.Changed)
	tapBanner(t, e, "Reload")
	if e.Buffer().Text() != "package main // theirs again\n" || e.Buffer().Modified() {
		t.Errorf("Reload: text %q, modified %v", e.Buffer().Text(), e.Buffer().Modified())
	}
	if e.Banner() != "" {
		t.Error("the banner stays after Reload")
	}
}

func TestReloadIgnoresOwnSave(t *testing.T) {
	w := newTestWindow(t)
	e := openEditor(t, w, "main.go")
	test.Type(e.Page(), "// saved\n")
	w.tabs.saveActive()
	w.tabs.saving.Wait()
	test.Type(e.Page(), "// typed after the save\n")
	diskEvent(w, "main.go", watch.Created) // the watcher sees our rename
	if msg := e.Banner(); msg != "" {
		t.Errorf("our own save showed the banner %q", msg)
	}
	if !strings.Contains(e.Buffer().Text(), "typed after the save") {
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
	if got := e.Banner(); got != "lib.go was deleted on disk" {
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
	test.Type(e.Page(), "x")
	writeDisk(t, w, "go.mod", "module example.com/other\n")
	diskEvent(w, "go.mod", watch.Changed)
	if e.Banner() != "" || e.Buffer().Text() != "x"+mainGo {
		t.Error("a change to another file touched main.go's editor")
	}
}

func TestStatusShowsCaret(t *testing.T) {
	w := newTestWindow(t)
	e := openEditor(t, w, "main.go")
	if got := w.status.cursor.Text; got != "Ln 1, Col 1" {
		t.Errorf("status cursor after opening the first tab = %q", got)
	}
	e.SetCaret(textbuf.Pos{Line: 4, Col: 2})
	if got := w.status.cursor.Text; got != "Ln 5, Col 3" {
		t.Errorf("status cursor = %q, want Ln 5, Col 3", got)
	}
	if err := w.Open(context.Background(), resolved(t, w, "go.mod"), 0); err != nil {
		t.Fatal(err)
	}
	if got := w.status.cursor.Text; got != "Ln 1, Col 1" {
		t.Errorf("status cursor after switching tabs = %q", got)
	}
	w.menu.closeActiveTab()
	w.menu.closeActiveTab()
	if got := w.status.cursor.Text; got != "" {
		t.Errorf("status cursor with no editor = %q", got)
	}
}

func TestEditMenuActsOnFocus(t *testing.T) {
	w := newTestWindow(t)
	w.installActions(Actions{})
	e := openEditor(t, w, "main.go")
	menus := map[string]*fyne.Menu{}
	for _, m := range w.win.MainMenu().Items {
		menus[m.Label] = m
	}
	var file []string
	for _, it := range menus["File"].Items {
		file = append(file, it.Label)
	}
	for _, it := range menus["Edit"].Items {
		if it.Shortcut == nil && !it.IsSeparator {
			t.Errorf("Edit > %s shows no shortcut", it.Label)
		}
	}
	if got := strings.Join(file, ","); !strings.Contains(got, "Open Recent,Go to File…,,Save,Save All,Close Tab") {
		t.Errorf("File menu = %s", got)
	}
	if w.win.MainMenu().Items[1].Label != "Edit" {
		t.Error("Edit is not the second menu")
	}
	test.Type(e.Page(), "abc")
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
	if e.Buffer().Text() != mainGo {
		t.Errorf("Edit > Undo left %q", e.Buffer().Text()[:10])
	}
	run("Select All")
	if e.SelectedText() != mainGo {
		t.Error("Edit > Select All did not select the text")
	}
}

func TestSettingsTabWidthApplies(t *testing.T) {
	w := newTestWindow(t)
	s := w.settings.Settings
	s.TabWidth = 2
	w.settings.use(s, "")
	e := openEditor(t, w, "main.go")
	if e.TabWidth() != 2 {
		t.Errorf("new editor tab width %d, want 2", e.TabWidth())
	}
	s.TabWidth = 8
	w.settings.apply(s, "")
	if e.TabWidth() != 8 {
		t.Errorf("open editor tab width %d after Settings, want 8", e.TabWidth())
	}
}
