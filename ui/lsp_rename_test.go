package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"trestle/app/lsp"
	"trestle/ui/editor"
)

// The rename fixture: main.go and lib.go are opened in editors, use.go is
// not, so F2's rename changes two buffers and writes one file.
const (
	renameMain = "package main\n\nfunc main() {\n\tx := 1\n\t_ = Double(x)\n}\n"
	renameUse  = "package main\n\nvar six = Double(3)\n"
)

// renamed opens main.go and lib.go, renames Double to Twice with F2's
// path, and waits until both editors and use.go on disk are renamed.
func renamed(t *testing.T) (w *Window, q chan func(), main, lib *editor.Editor) {
	t.Helper()
	w, q = goplsWindowOn(t, map[string]string{"main.go": renameMain, "lib.go": goplsLib, "use.go": renameUse})
	w.menu.build(nil)
	main, lib = openGoEditor(t, w, "main.go"), openGoEditor(t, w, "lib.go")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := w.gopls.client.Settle(ctx, 0); err != nil {
		t.Fatal(err)
	}
	w.renamer.rename("main.go", lsp.Position{Line: 5, Col: 6}, "Twice")
	drainUntil(t, w, q, "the rename", func() bool {
		return main.Buffer().Line(4) == "\t_ = Twice(x)" && strings.Contains(lib.Buffer().Text(), "func Twice(") && w.gopls.renames.last != nil
	})
	if got := onDisk(t, w, "use.go"); got != strings.Replace(renameUse, "Double", "Twice", 1) {
		t.Fatalf("use.go on disk after the rename: %q", got)
	}
	if onDisk(t, w, "main.go") != renameMain || onDisk(t, w, "lib.go") != goplsLib {
		t.Fatal("the rename wrote a file that is open in an editor")
	}
	if !main.Buffer().Modified() || !lib.Buffer().Modified() {
		t.Fatal("the renamed editors are not marked unsaved")
	}
	goplsSeesUse(t, w, q, "the renamed use.go")
	return w, q, main, lib
}

// goplsSeesUse waits until gopls has use.go's text on disk: the call in
// it resolves to lib.go's function and nothing in the package is
// undefined (a stale use.go would call a name lib.go no longer declares).
func goplsSeesUse(t *testing.T, w *Window, q chan func(), what string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	drainUntil(t, w, q, "gopls to see "+what, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		locs, err := w.gopls.client.Definition(ctx, "use.go", lsp.Position{Line: 3, Col: 12})
		ok := err == nil && len(locs) == 1 && locs[0].Path == "lib.go" && len(w.gopls.client.Diagnostics("")) == 0
		if !ok && time.Now().After(deadline) {
			t.Fatalf("gopls does not see %s: definition %v, %v; diagnostics %v", what, locs, err, w.gopls.client.Diagnostics(""))
		}
		return ok
	})
}

func onDisk(t *testing.T, w *Window, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(w.project.Root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// menuAction is the action of the main menu's item label under menu.
func menuAction(t *testing.T, w *Window, menu, label string) func() {
	t.Helper()
	for _, m := range w.win.MainMenu().Items {
		for _, it := range m.Items {
			if m.Label == menu && it.Label == label {
				return it.Action
			}
		}
	}
	t.Fatalf("no %s ▸ %s in the main menu", menu, label)
	return nil
}

// restored reports whether every file is back to its text before the
// rename: both editors and use.go on disk.
func restored(t *testing.T, w *Window, main, lib *editor.Editor) bool {
	return main.Buffer().FileText() == renameMain && lib.Buffer().FileText() == goplsLib && onDisk(t, w, "use.go") == renameUse
}

// TestUndoRenameFromTheMenu: Edit ▸ Undo Rename takes back F2's rename in
// both editors and in the file it wrote, as one step.
func TestUndoRenameFromTheMenu(t *testing.T) {
	w, q, main, lib := renamed(t)
	menuAction(t, w, "Edit", "Undo Rename")()
	drainUntil(t, w, q, "the undone rename", func() bool { return restored(t, w, main, lib) })
	if main.Buffer().Modified() || lib.Buffer().Modified() {
		t.Error("an editor is still marked unsaved after the rename was undone")
	}
	if msg := w.status.message.Text; !strings.Contains(msg, "Undid the rename to Twice in 3 files") {
		t.Errorf("status after the undo: %q", msg)
	}
	goplsSeesUse(t, w, q, "use.go restored")
	menuAction(t, w, "Edit", "Undo Rename")()
	if msg := w.status.message.Text; !strings.HasPrefix(msg, "Nothing to undo") {
		t.Errorf("a second Undo Rename: %q", msg)
	}
}

// TestCtrlZUndoesTheWholeRename: Ctrl+Z in one editor the rename changed
// undoes it in the other editor and on disk too.
func TestCtrlZUndoesTheWholeRename(t *testing.T) {
	w, q, main, lib := renamed(t)
	lib.Page().TypedShortcut(&fyne.ShortcutUndo{})
	drainUntil(t, w, q, "the undone rename", func() bool { return restored(t, w, main, lib) })
	// Typing after it is plain typing: nothing more is undone or redone.
	typeAt(main, 4, 8, "0")
	drainUntil(t, w, q, "the typed text", func() bool { return main.Buffer().Line(3) == "\tx := 10" })
	if onDisk(t, w, "use.go") != renameUse || lib.Buffer().FileText() != goplsLib {
		t.Fatal("typing after the undo changed another file")
	}
}

// TestUndoRenameRefusesAChangedFile: when a file the rename wrote changed
// on disk since, Undo Rename and Ctrl+Z undo nothing and say which file.
func TestUndoRenameRefusesAChangedFile(t *testing.T) {
	w, q, main, lib := renamed(t)
	changed := "package main\n\nvar six = Twice(3) // edited by hand\n"
	if err := os.WriteFile(filepath.Join(w.project.Root, "use.go"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	menuAction(t, w, "Edit", "Undo Rename")()
	drainUntil(t, w, q, "the refusal", func() bool { return strings.Contains(w.status.message.Text, "refused") })
	if msg := w.status.message.Text; !strings.Contains(msg, "use.go changed on disk") || !strings.Contains(msg, "nothing was undone") {
		t.Errorf("refusal: %q", msg)
	}
	main.Page().TypedShortcut(&fyne.ShortcutUndo{}) // undoes main.go's rename, then is refused and redone
	w.status.message.SetText("")
	drainUntil(t, w, q, "the refused Ctrl+Z", func() bool { return strings.Contains(w.status.message.Text, "refused") })
	if main.Buffer().Line(4) != "\t_ = Twice(x)" || !strings.Contains(lib.Buffer().Text(), "func Twice(") || onDisk(t, w, "use.go") != changed {
		t.Fatalf("a refused undo changed something: main.go line 5 %q, use.go %q", main.Buffer().Line(4), onDisk(t, w, "use.go"))
	}
	// Put the file back as the rename left it: the undo goes through.
	os.WriteFile(filepath.Join(w.project.Root, "use.go"), []byte(strings.Replace(renameUse, "Double", "Twice", 1)), 0o644)
	menuAction(t, w, "Edit", "Undo Rename")()
	drainUntil(t, w, q, "the undone rename", func() bool { return restored(t, w, main, lib) })
}

// TestRenameTakesEveryEditorsText: text typed in another editor a moment
// before F2 (not yet sent to gopls by its debounce) is renamed as typed,
// not refused as changed.
func TestRenameTakesEveryEditorsText(t *testing.T) {
	w, q := goplsWindowOn(t, map[string]string{"main.go": renameMain, "lib.go": goplsLib, "use.go": renameUse})
	main, lib := openGoEditor(t, w, "main.go"), openGoEditor(t, w, "lib.go")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := w.gopls.client.Settle(ctx, 0); err != nil {
		t.Fatal(err)
	}
	typeAt(lib, 5, 1, "var four = Double(2)\n")
	w.renamer.rename("main.go", lsp.Position{Line: 5, Col: 6}, "Twice")
	drainUntil(t, w, q, "the rename", func() bool {
		return strings.Contains(w.status.message.Text, "Rename") || main.Buffer().Line(4) == "\t_ = Twice(x)"
	})
	if !strings.Contains(lib.Buffer().Text(), "var four = Twice(2)") || main.Buffer().Line(4) != "\t_ = Twice(x)" {
		t.Fatalf("rename with lib.go's typed text: status %q, lib.go %q", w.status.message.Text, lib.Buffer().Text())
	}
}
