package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// openedMenus records which menus the window asked the menu bar to open.
type openedMenus struct{ got []int }

func (o *openedMenus) open(i int) { o.got = append(o.got, i) }

func alt(key fyne.KeyName) fyne.Shortcut {
	return &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierAlt}
}

// TestMenuKeysOpenTheMenus: Alt and a menu's first letter open that menu
// and F10 the first, pressed as the desktop driver delivers them, with the
// keyboard in the editor, the file tree, the Eval line or nowhere; not
// while a dialog owns the keyboard. (The driver's menu bar opening is
// TestMenuKeysInTheRealWindow's, under Xvfb.)
func TestMenuKeysOpenTheMenus(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n"})
	w.installActions(Actions{})
	rec := &openedMenus{}
	w.keys.bar = rec
	w.OpenOnMain("a.go")
	w.loading.Wait()
	var titles []string
	for _, m := range w.win.MainMenu().Items {
		titles = append(titles, m.Label)
	}
	if want := []string{"File", "Edit", "View", "Run", "Agents", "Help"}; !slices.Equal(titles, want) {
		t.Fatalf("menus %v: the test expects %v", titles, want)
	}
	c := w.win.Canvas()
	press := func(what string, focus fyne.Focusable, do func(), want ...int) {
		t.Helper()
		rec.got = nil
		if focus != nil {
			c.Focus(focus)
		} else {
			c.Unfocus()
		}
		do()
		if !slices.Equal(rec.got, want) {
			t.Errorf("%s with the keyboard in %T: opened %v, want %v", what, focus, rec.got, want)
		}
	}
	editor := w.tabs.activeEditor().Page()
	press("Alt+F", editor, func() { pressShortcut(w.win, alt(fyne.KeyF)) }, 0)
	press("Alt+E", w.tree, func() { pressShortcut(w.win, alt(fyne.KeyE)) }, 1)
	press("Alt+R", w.panes.eval.input, func() { pressShortcut(w.win, alt(fyne.KeyR)) }, 3)
	press("Alt+H", nil, func() { pressShortcut(w.win, alt(fyne.KeyH)) }, 5)
	for _, focus := range []fyne.Focusable{editor, w.tree, w.panes.eval.input, nil} {
		press("F10", focus, func() { pressKey(w.win, fyne.KeyF10) }, 0)
	}
	w.dialogs.showInfo("A dialog", "It owns the keyboard.")
	press("Alt+F under a dialog", nil, func() { pressShortcut(w.win, alt(fyne.KeyF)) })
	press("F10 under a dialog", nil, func() { pressKey(w.win, fyne.KeyF10) })
	pressKey(w.win, fyne.KeyEscape)
	if c.Overlays().Top() != nil {
		t.Fatal("Escape did not close the dialog: F10's key handler lost Escape's")
	}
}
