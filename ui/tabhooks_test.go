package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestTabHooksRunInTheOrderRegistered: each part that registers with the
// tabs' onAdded, onTyped and onSaved hears every tab, in the order the
// parts registered, beside what registered before it (the git gutter, as
// newWindow builds the window): no part wraps another's callback, so the
// order of setup cannot drop one.
func TestTabHooksRunInTheOrderRegistered(t *testing.T) {
	w := newTestWindow(t)
	var heard []string
	for _, part := range []string{"first", "second"} {
		w.tabs.onAdded(func(t *fileTab) { heard = append(heard, part+" added "+t.path) })
		w.tabs.onTyped(func(t *fileTab) { heard = append(heard, part+" typed "+t.path) })
		w.tabs.onSaved(func(t *fileTab) { heard = append(heard, part+" saved "+t.path) })
	}
	e := openEditor(t, w, "main.go")
	test.Type(e.Page(), "x")
	e.Page().TypedShortcut(&desktopCtrlS)
	w.tabs.saving.Wait()
	want := []string{
		"first added main.go", "second added main.go",
		"first typed main.go", "second typed main.go",
		"first saved main.go", "second saved main.go",
	}
	if !slices.Equal(heard, want) {
		t.Fatalf("the hooks heard %q, want %q", heard, want)
	}
	if n := len(w.tabs.added); n != 3 {
		t.Errorf("%d onAdded hooks, want 3 (the git gutter's and the test's two)", n)
	}
}
