package ui

import (
	"errors"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// TestEscapeClosesTheTopDialog: with nothing focused Escape closes the
// dialog on top, then the one under it; a form's callback hears false.
func TestEscapeClosesTheTopDialog(t *testing.T) {
	w := newTestWindow(t)
	w.Window().Resize(fyne.NewSize(900, 600))
	c := w.win.Canvas()
	answered := "none"
	form := dialog.NewForm("Form", "OK", "Cancel", []*widget.FormItem{widget.NewFormItem("x", widget.NewLabel("y"))},
		func(ok bool) { answered = map[bool]string{true: "ok", false: "cancel"}[ok] }, w.win)
	w.dialogs.show(form)
	w.dialogs.showError(errors.New("boom"))
	if n := len(c.Overlays().List()); n != 2 {
		t.Fatalf("%d overlays, want 2", n)
	}
	c.Unfocus()
	escape := c.OnTypedKey()
	escape(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if n := len(c.Overlays().List()); n != 1 {
		t.Fatalf("after one Escape %d overlays, want the form left", n)
	}
	escape(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if n := len(c.Overlays().List()); n != 0 || answered != "cancel" {
		t.Fatalf("after two: %d overlays, the form answered %q; want none left and cancel", n, answered)
	}
}

// TestEscapeInADialogsEntry: Escape typed into a dialog's entry (the tree's
// New File, the reject reason) closes the dialog.
func TestEscapeInADialogsEntry(t *testing.T) {
	w := newTestWindow(t)
	w.Window().Resize(fyne.NewSize(900, 600))
	c := w.win.Canvas()
	w.files.askNew("New File", "", w.files.createFile)
	e, ok := c.Focused().(*escEntry)
	if !ok || len(c.Overlays().List()) != 1 {
		t.Fatalf("New File shows %d overlays with focus on %T", len(c.Overlays().List()), c.Focused())
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if n := len(c.Overlays().List()); n != 0 {
		t.Errorf("Escape in the entry left %d overlays", n)
	}
}
