package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"trestle/app/workbench"
	"trestle/ui/editor"
)

func TestSaveFileKeepsModeAndCRLF(t *testing.T) {
	p := newProject(t, map[string]string{"run.sh": "echo a\r\necho b\r\n"})
	abs := filepath.Join(p.Root, "run.sh")
	if err := os.Chmod(abs, 0o751); err != nil {
		t.Fatal(err)
	}
	f, err := loadFile(p, "run.sh")
	if err != nil {
		t.Fatal(err)
	}
	f.buf.Insert(f.buf.End(), "echo c\n")
	if err := saveFile(p, "run.sh", f.buf.FileText()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(data); got != "echo a\r\necho b\r\necho c\r\n" {
		t.Errorf("saved %q", got)
	}
	if info, _ := os.Stat(abs); info.Mode().Perm() != 0o751 {
		t.Errorf("mode = %v, want 0751", info.Mode().Perm())
	}
	entries, _ := os.ReadDir(p.Root)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestSaveFileReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into a read-only folder")
	}
	p := newProject(t, map[string]string{"ro/a.txt": "old"})
	dir := filepath.Join(p.Root, "ro")
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	err := saveFile(p, "ro/a.txt", "new")
	if err == nil || !strings.Contains(err.Error(), "ro/a.txt") {
		t.Fatalf("err = %v, want one naming the file", err)
	}
}

// openEditor opens rel in w and returns its editor, laid out.
func openEditor(t *testing.T, w *Window, rel string) *editor.Editor {
	t.Helper()
	if err := w.Open(context.Background(), resolved(t, w, rel), 0); err != nil {
		t.Fatal(err)
	}
	w.Window().Resize(fyne.NewSize(900, 600))
	e := w.tabs.find(rel).view
	w.Window().Canvas().Focus(e.Page())
	return e
}

func TestWindowEditMarksDirtyAndSaves(t *testing.T) {
	w := newTestWindow(t)
	e := openEditor(t, w, "main.go")
	test.Type(e.Page(), "// x\n")
	text, open, dirty, err := w.Buffer(context.Background(), resolved(t, w, "main.go"))
	if err != nil || !open || !dirty || text != "// x\n"+mainGo {
		t.Fatalf("Buffer = %q open %v dirty %v err %v", text, open, dirty, err)
	}
	if got := tabs(t, w); !slices.Equal(got, []workbench.Tab{{Path: "main.go", Active: true, Dirty: true}}) {
		t.Errorf("tabs = %v", got)
	}
	if title := w.tabs.find("main.go").item.Text; title != dirtyMark+"main.go" {
		t.Errorf("title = %q", title)
	}
	e.Page().TypedShortcut(&desktopCtrlS)
	w.tabs.saving.Wait()
	data, _ := os.ReadFile(filepath.Join(w.project.Root, "main.go"))
	if string(data) != "// x\n"+mainGo {
		t.Errorf("saved %q", data)
	}
	if _, _, dirty, _ := w.Buffer(context.Background(), resolved(t, w, "main.go")); dirty {
		t.Error("still dirty after save")
	}
	if title := w.tabs.find("main.go").item.Text; title != "main.go" {
		t.Errorf("title after save = %q", title)
	}
}

func TestWindowSelection(t *testing.T) {
	w := newTestWindow(t)
	if _, err := w.Selection(context.Background()); err == nil {
		t.Error("Selection with no editor: no error")
	}
	if err := w.SelectRange(context.Background(), resolved(t, w, "main.go"), 5, 6, 5, 10); err != nil {
		t.Fatal(err)
	}
	sel, err := w.Selection(context.Background())
	want := workbench.EditorSelection{Path: "main.go", Text: "main", StartLine: 5, StartCol: 6, EndLine: 5, EndCol: 10}
	if err != nil || sel != want {
		t.Errorf("Selection = %+v, %v; want %+v", sel, err, want)
	}
	if line, col := w.tabs.caretPosition(); line != 5 || col != 10 {
		t.Errorf("CaretPosition = %d:%d", line, col)
	}
}

func TestTabWidthSetting(t *testing.T) {
	w := newTestWindow(t)
	e := openEditor(t, w, "main.go")
	w.tabs.setTabWidth(8)
	e.SetCaret(e.Buffer().End())
	e.ShowLine(6) // "\tfmt.Println"
	for _, r := range gridRows(t, e) {
		if strings.Contains(rowText(r), "fmt.Println") {
			if got := strings.Index(rowText(r), "fmt"); got != gutterWidth(e.Buffer().LineCount())+8 {
				t.Errorf("fmt at cell %d with tab width 8: %q", got, rowText(r))
			}
			return
		}
	}
	t.Error("line 6 not in the grid")
}

// TestTabTitlesNameTheFolderWhenNamesCollide: two doc.go tabs show their
// folders, both of them, from the moment the second opens; when one
// closes the other goes back to its bare name.
func TestTabTitlesNameTheFolderWhenNamesCollide(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a/doc.go": "package a\n", "b/c/doc.go": "package c\n", "doc.go": "package x\n"})
	openEditor(t, w, "a/doc.go")
	if got := w.tabs.find("a/doc.go").item.Text; got != "doc.go" {
		t.Fatalf("a lone tab is titled %q, want doc.go", got)
	}
	openEditor(t, w, "b/c/doc.go")
	openEditor(t, w, "doc.go")
	for rel, want := range map[string]string{"a/doc.go": "doc.go — a", "b/c/doc.go": "doc.go — b/c", "doc.go": "doc.go"} {
		if got := w.tabs.find(rel).item.Text; got != want {
			t.Errorf("tab of %s is titled %q, want %q", rel, got, want)
		}
	}
	w.tabs.remove(w.tabs.find("b/c/doc.go").item)
	w.tabs.remove(w.tabs.find("doc.go").item)
	if got := w.tabs.find("a/doc.go").item.Text; got != "doc.go" {
		t.Errorf("after the others closed, a/doc.go is titled %q, want doc.go", got)
	}
}

// TestTabVersionsNameTheirText: a tab's Version stays while its text does
// and changes with a keystroke, so the gopls tools read only editors that
// changed; Buffer hands the text over as the editor holds it.
func TestTabVersionsNameTheirText(t *testing.T) {
	w := newTestWindow(t)
	e := openEditor(t, w, "main.go")
	version := func() uint64 {
		got, err := w.Tabs(context.Background())
		if err != nil || len(got) != 1 {
			t.Fatalf("Tabs = %v, %v", got, err)
		}
		return got[0].Version
	}
	before := version()
	if before == 0 || version() != before {
		t.Fatalf("an unchanged tab's version went %d -> %d", before, version())
	}
	test.Type(e.Page(), "// y\n")
	if after := version(); after == before {
		t.Fatalf("the version stayed %d after a keystroke", after)
	}
	text, open, _, err := w.Buffer(context.Background(), resolved(t, w, "main.go"))
	if err != nil || !open || text != "// y\n"+mainGo {
		t.Fatalf("Buffer = %q, %v, %v", text, open, err)
	}
}
