package editor

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"trestle/app/textbuf"
)

// The editing keys as the driver hands them over: runes, keys and
// shortcuts to whatever has the canvas's focus.

func canvasOf(e *Editor) fyne.Canvas { return fyne.CurrentApp().Driver().CanvasForObject(e) }

// press sends the shortcut mod+key to the focused widget, as the driver does.
func press(t *testing.T, e *Editor, mod fyne.KeyModifier, key fyne.KeyName) {
	t.Helper()
	f, ok := canvasOf(e).Focused().(fyne.Shortcutable)
	if !ok {
		t.Fatalf("the focus (%T) takes no shortcuts", canvasOf(e).Focused())
	}
	var s fyne.Shortcut = &desktop.CustomShortcut{KeyName: key, Modifier: mod}
	if mod == ctrlMod && key == fyne.KeyZ {
		s = &fyne.ShortcutUndo{} // what the driver makes of Ctrl+Z
	}
	f.TypedShortcut(s)
}

// typeKeys types s into the focused widget, "\n" as Enter.
func typeKeys(e *Editor, s string) {
	f := canvasOf(e).Focused()
	for _, r := range s {
		if r == '\n' {
			f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
			continue
		}
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyName(string(r))}) // Fyne sends a letter's key, then its rune
		f.TypedRune(r)
	}
}

const ctrlMod, altMod, shiftMod = fyne.KeyModifierShortcutDefault, fyne.KeyModifierAlt, fyne.KeyModifierShift

func TestWordMovementAndSelectionKeys(t *testing.T) {
	e := newTestEditor(t, "\tfoo.Bar(x, yy)\nnext\n", true)
	e.SetCaret(textbuf.Pos{})
	press(t, e, ctrlMod, fyne.KeyRight)
	press(t, e, ctrlMod, fyne.KeyRight)
	if e.Caret() != (textbuf.Pos{Col: 5}) {
		t.Fatalf("two Ctrl+Right from the start: caret %v, want after the dot", e.Caret())
	}
	press(t, e, ctrlMod|shiftMod, fyne.KeyRight)
	if got := e.SelectedText(); got != "Bar" {
		t.Fatalf("Ctrl+Shift+Right selected %q, want Bar", got)
	}
	e.SetCaret(textbuf.Pos{Line: 1})
	press(t, e, ctrlMod, fyne.KeyLeft)
	if e.Caret() != (textbuf.Pos{Col: 15}) {
		t.Errorf("Ctrl+Left at a line's start: caret %v, want the end of the line above", e.Caret())
	}
	press(t, e, ctrlMod|shiftMod, fyne.KeyLeft)
	if got := e.SelectedText(); got != ")" {
		t.Errorf("Ctrl+Shift+Left selected %q", got)
	}
}

func TestLineKeys(t *testing.T) {
	e := newTestEditor(t, "func f() {\n\ta()\n\tb()\n}\n", true)
	e.SetCaret(textbuf.Pos{Line: 1, Col: 2})
	press(t, e, ctrlMod, fyne.KeySlash)
	if got := e.Buffer().Line(1); got != "\t// a()" {
		t.Fatalf("Ctrl+/ made line 2 %q", got)
	}
	if e.Caret() != (textbuf.Pos{Line: 1, Col: 5}) {
		t.Errorf("after Ctrl+/ the caret is at %v, want on the same text", e.Caret())
	}
	press(t, e, ctrlMod, fyne.KeySlash)
	if got := e.Buffer().Line(1); got != "\ta()" {
		t.Fatalf("a second Ctrl+/ made line 2 %q", got)
	}
	press(t, e, altMod, fyne.KeyDown)
	if got := e.Buffer().Text(); got != "func f() {\n\tb()\n\ta()\n}\n" || e.Caret().Line != 2 {
		t.Fatalf("Alt+Down: caret %v, text\n%s", e.Caret(), got)
	}
	press(t, e, altMod, fyne.KeyUp)
	if got := e.Buffer().Text(); got != "func f() {\n\ta()\n\tb()\n}\n" || e.Caret().Line != 1 {
		t.Fatalf("Alt+Up: caret %v, text\n%s", e.Caret(), got)
	}
	press(t, e, ctrlMod|shiftMod, fyne.KeyD)
	press(t, e, altMod|shiftMod, fyne.KeyDown)
	if got := e.Buffer().Text(); got != "func f() {\n\ta()\n\ta()\n\ta()\n\tb()\n}\n" || e.Caret().Line != 3 {
		t.Fatalf("Ctrl+Shift+D, Alt+Shift+Down: caret %v, text\n%s", e.Caret(), got)
	}
	for range 6 {
		press(t, e, ctrlMod, fyne.KeyZ)
	}
	if got := e.Buffer().Text(); got != "func f() {\n\ta()\n\tb()\n}\n" || e.Buffer().Modified() {
		t.Errorf("six Ctrl+Z left (modified %v):\n%s", e.Buffer().Modified(), got)
	}
}

// TestOneUndoTakesBackATypedLine: a line typed with quotes, brackets and
// a call goes with one Ctrl+Z (it took seven).
func TestOneUndoTakesBackATypedLine(t *testing.T) {
	e := newTestEditor(t, "package p\n\nfunc f() {\n}\n", true)
	e.SetCaret(textbuf.Pos{Line: 2, Col: 10})
	typeKeys(e, "\nvar _ int = len(\"not an int\")")
	if got := e.Buffer().Line(3); got != "\tvar _ int = len(\"not an int\")" {
		t.Fatalf("typed line %q", got)
	}
	press(t, e, ctrlMod, fyne.KeyZ)
	if got := e.Buffer().Text(); got != "package p\n\nfunc f() {\n}\n" {
		t.Errorf("one Ctrl+Z left:\n%s", got)
	}
}
