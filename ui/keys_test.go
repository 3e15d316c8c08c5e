package ui

import (
	"os"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// Fyne's test driver has no keyboard: test.Type hands runes to one
// widget, and nothing runs a main menu's shortcuts. pressShortcut and
// pressKey deliver a key press the way the desktop driver does
// (fyne.io/fyne/v2/internal/driver/glfw/window.go, processKeyPressed and
// triggersShortcut, Fyne 2.7): a shortcut goes to the main menu's items
// first, then to the focused widget, then to the canvas's own shortcuts;
// a plain key goes to the focused widget, or to the canvas with nothing
// focused. With a dialog or pop-up on top, "focused" is what is focused
// in it (each overlay has its own focus manager), as on the desktop.

// pressShortcut is a person pressing sc in win.
func pressShortcut(win fyne.Window, sc fyne.Shortcut) {
	if m := win.MainMenu(); m != nil {
		for _, menu := range m.Items {
			if triggerMenuShortcut(menu, sc) {
				return
			}
		}
	}
	c := win.Canvas()
	if f, ok := c.Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(sc)
		return
	}
	c.(fyne.Shortcutable).TypedShortcut(sc)
}

func triggerMenuShortcut(m *fyne.Menu, sc fyne.Shortcut) bool {
	for _, it := range m.Items {
		if it.Shortcut != nil && it.Shortcut.ShortcutName() == sc.ShortcutName() && it.Action != nil {
			it.Action()
			return true
		}
		if it.ChildMenu != nil && triggerMenuShortcut(it.ChildMenu, sc) {
			return true
		}
	}
	return false
}

// pressKey is a person pressing a key without modifiers in win.
func pressKey(win fyne.Window, key fyne.KeyName) {
	c := win.Canvas()
	ev := &fyne.KeyEvent{Name: key}
	if f := c.Focused(); f != nil {
		f.TypedKey(ev)
	} else if fn := c.OnTypedKey(); fn != nil {
		fn(ev)
	}
}

// typeText is a person typing s in win: each rune goes to what has the
// keyboard, as the desktop driver's character callback sends it.
func typeText(t *testing.T, win fyne.Window, s string) {
	t.Helper()
	c := win.Canvas()
	for _, r := range s {
		if f := c.Focused(); f != nil {
			f.TypedRune(r)
		} else if fn := c.OnTypedRune(); fn != nil {
			fn(r)
		} else {
			t.Fatalf("typing %q: nothing has the keyboard", s)
		}
	}
}

// ctrl is Ctrl+key as the desktop driver makes it from a key press, with
// Shift when shift is set; Ctrl+A, X, C and V are Fyne's own shortcuts.
func ctrl(key fyne.KeyName, shift bool) fyne.Shortcut {
	if !shift {
		switch key {
		case fyne.KeyA:
			return &fyne.ShortcutSelectAll{}
		case fyne.KeyX:
			return &fyne.ShortcutCut{Clipboard: fyne.CurrentApp().Clipboard()}
		case fyne.KeyC:
			return &fyne.ShortcutCopy{Clipboard: fyne.CurrentApp().Clipboard()}
		case fyne.KeyV:
			return &fyne.ShortcutPaste{Clipboard: fyne.CurrentApp().Clipboard()}
		case fyne.KeyZ:
			return &fyne.ShortcutUndo{}
		}
	}
	mod := fyne.KeyModifierShortcutDefault
	if shift {
		mod |= fyne.KeyModifierShift
	}
	return &desktop.CustomShortcut{KeyName: key, Modifier: mod}
}

const badlyFormatted = "package main\n\nfunc main() {\n\tx    :=   1\n\t_ = x\n}\n"

// TestFormatOnSaveThroughCtrlS: Ctrl+S pressed in the window, as the
// desktop driver delivers it (the File menu's Save shortcut runs before
// the editor sees the key), formats with the real gopls and writes the
// formatted text; so do File ▸ Save from the palette and Save All.
func TestFormatOnSaveThroughCtrlS(t *testing.T) {
	for _, tc := range []struct {
		name string
		save func(t *testing.T, w *Window)
	}{
		{"ctrl+s", func(t *testing.T, w *Window) { pressShortcut(w.win, ctrl(fyne.KeyS, false)) }},
		{"ctrl+shift+s", func(t *testing.T, w *Window) { pressShortcut(w.win, ctrl(fyne.KeyS, true)) }},
		{"palette", func(t *testing.T, w *Window) {
			pressShortcut(w.win, ctrl(fyne.KeyP, true))
			typeText(t, w.win, "File › Save")
			pressKey(w.win, fyne.KeyReturn)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, q := goplsWindowOn(t, map[string]string{"main.go": badlyFormatted, "lib.go": goplsLib})
			w.installActions(Actions{})
			e := openGoEditor(t, w, "main.go")
			typeAt(e, 5, 5, " ") // "_ =  x": an edit, so that Save All has something to save
			tc.save(t, w)
			drainUntil(t, w, q, "the formatted save", func() bool {
				b, _ := os.ReadFile(w.project.Root + "/main.go")
				return string(b) == goplsMain && !e.Buffer().Modified()
			})
		})
	}
}
