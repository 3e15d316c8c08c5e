package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"trestle/app/textbuf"
)

func TestNavHistoryWalksBackAndForward(t *testing.T) {
	var h navHistory
	a, b, c := navPlace{"a.go", textbuf.Pos{Line: 1}}, navPlace{"b.go", textbuf.Pos{Line: 2}}, navPlace{"c.go", textbuf.Pos{Line: 3}}
	h.jumped(a) // a -> b
	h.jumped(b) // b -> c
	if p, ok := h.goBack(c); !ok || p != b {
		t.Fatalf("back from c: %v %v", p, ok)
	}
	if p, ok := h.goBack(b); !ok || p != a {
		t.Fatalf("back from b: %v %v", p, ok)
	}
	if _, ok := h.goBack(a); ok {
		t.Fatal("back past the first place")
	}
	if p, ok := h.goForward(a); !ok || p != b {
		t.Fatalf("forward from a: %v %v", p, ok)
	}
	h.jumped(b) // a new jump forgets what was forward
	if _, ok := h.goForward(a); ok {
		t.Error("forward after a new jump")
	}
}

// TestAltLeftComesBackAfterF12: F12 opens the declaration in lib.go;
// Alt+Left, as the focused editor hands it to the window, comes back to
// the caret in main.go, and Alt+Right goes to lib.go again.
func TestAltLeftComesBackAfterF12(t *testing.T) {
	w, q := goplsWindow(t)
	e := openGoEditor(t, w, "main.go")
	typeAt(e, 5, 6, "Double(") // _ = Double(x)
	typeAt(e, 5, 14, ")")
	from := textbuf.Pos{Line: 4, Col: 7}
	e.SetCaret(from)
	c := w.win.Canvas()
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyF12})
	drainUntil(t, w, q, "lib.go to open", func() bool { return w.tabs.active() == "lib.go" })
	lib := w.tabs.find("lib.go").view
	decl := lib.Caret()
	alt := func(key fyne.KeyName) {
		shortcutOnCanvas(c, &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierAlt})
		w.loading.Wait()
	}
	alt(fyne.KeyLeft)
	if w.tabs.active() != "main.go" || e.Caret() != from {
		t.Fatalf("Alt+Left: %s active, caret %v; want main.go at %v", w.tabs.active(), e.Caret(), from)
	}
	alt(fyne.KeyRight)
	if w.tabs.active() != "lib.go" || lib.Caret() != decl {
		t.Fatalf("Alt+Right: %s active, caret %v; want lib.go at %v", w.tabs.active(), lib.Caret(), decl)
	}
}

// TestOutlineIsATree: Ctrl+Shift+O shows a struct's fields under it in
// the Outline pane, and a tap on a field's row opens the file there.
func TestOutlineIsATree(t *testing.T) {
	const store = "package main\n\n// Store keeps things.\ntype Store struct {\n\tName string\n\tsize int\n}\n\nfunc (s *Store) Len() int { return s.size }\n\nfunc main() {}\n"
	w, q := goplsWindowOn(t, map[string]string{"main.go": store})
	e := openGoEditor(t, w, "main.go")
	c := w.win.Canvas()
	shortcutOnCanvas(c, &desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift})
	drainUntil(t, w, q, "the outline", func() bool { return w.gopls.outline != nil && len(w.gopls.outline.places) > 0 })
	o := w.gopls.outline.outline
	names := func(parent int) []string {
		var out []string
		for _, i := range o.children(parent) {
			out = append(out, strings.Fields(o.places[i].label)[1])
		}
		return out
	}
	top := names(-1)
	if !slices.Contains(top, "Store") || !slices.Contains(top, "main") {
		t.Fatalf("the outline's top level is %q", top)
	}
	storeAt := slices.IndexFunc(o.places, func(p place) bool { return strings.Contains(p.label, " Store ") })
	if got := names(storeAt); !slices.Equal(got, []string{"Name", "size"}) {
		t.Fatalf("under Store the outline has %q, want its fields", got)
	}
	size := o.places[o.children(storeAt)[1]]
	test.TapCanvas(c, textIn(t, c, w.gopls.outline.tree, size.label))
	w.loading.Wait()
	if e.Caret().Line != 5 {
		t.Errorf("a tap on the field size put the caret at %v, want line 6", e.Caret())
	}
}
