package ui

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app/permission"
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

// pressTab is a person pressing Tab in win, as the desktop driver takes
// it (glfw window.go, capturesTab): a focused widget that accepts Tab
// types it, else the focus moves to the next widget.
func pressTab(win fyne.Window) {
	c := win.Canvas()
	if f, ok := c.Focused().(fyne.Tabbable); ok && f.AcceptsTab() {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyTab})
		return
	}
	c.FocusNext()
}

// escapeEverywhere opens a dialog with open, again and again: Tab moves
// the focus through it 0, 1, 2… times, round to where it started, and
// each time Escape must close it wherever the focus is. It returns the
// kinds of widget Escape was pressed in, in focus order.
func escapeEverywhere(t *testing.T, w *Window, open func()) []string {
	t.Helper()
	c := w.win.Canvas()
	before := len(c.Overlays().List())
	open()
	var chain []fyne.Focusable // where the focus goes, Tab after Tab, until it comes round
	if f := c.Focused(); f != nil {
		chain = append(chain, f)
	}
	for range 30 {
		pressTab(w.win)
		if f := c.Focused(); f == nil || slices.Contains(chain, f) {
			break
		} else {
			chain = append(chain, f)
		}
	}
	w.dialogs.escapeTop()
	var kinds []string
	for n := range len(chain) + 1 {
		open()
		if got := len(c.Overlays().List()); got != before+1 {
			t.Fatalf("%d overlays after opening the dialog, want %d", got, before+1)
		}
		for range n {
			pressTab(w.win)
		}
		kinds = append(kinds, fmt.Sprintf("%T", c.Focused()))
		pressKey(w.win, fyne.KeyEscape)
		if got := len(c.Overlays().List()); got != before {
			t.Fatalf("Escape with the focus on %s (after %d Tabs) left the dialog open", kinds[len(kinds)-1], n)
		}
	}
	return kinds
}

// TestEscapeClosesDialogsWhereverTheFocusIs: in each kind of dialog the
// window shows, Escape closes it with the focus on any of its widgets,
// as a person tabs through it: a button (it did nothing once Tab had
// moved onto one), an entry, a check box, a select, a list.
func TestEscapeClosesDialogsWhereverTheFocusIs(t *testing.T) {
	w := newTestWindow(t)
	w.Window().Resize(fyne.NewSize(1024, 700))
	newFile := false
	tests := []struct {
		name string
		open func()
		want []string // kinds of widget the focus must have been on, among others
	}{
		{"information", func() { w.dialogs.showInfo("Already open", "It is open in another window.") }, []string{"*ui.escButton"}},
		{"error", func() { w.dialogs.showError(errors.New("boom")) }, []string{"*ui.escButton"}},
		{"form", func() {
			w.files.askNew("New File", "", func(string) error { newFile = true; return nil })
			typeText(t, w.win, "new.go") // a valid name: the Create button takes the focus too
		}, []string{"*ui.escEntry", "*ui.escButton"}},
		{"about", w.menu.showAbout, []string{"*ui.escButton"}},
		{"save or discard", func() { askSave(w.dialogs, "Save a.go?", "a.go has unsaved edits.", func() {}, func() {}) }, []string{"*ui.escButton"}},
		{"settings", w.settings.show, []string{"*ui.escCheck", "*ui.escSelect", "*ui.escButton"}},
		{"permission", func() {
			w.asks.show(permission.Request{Client: "c", Kind: "run", Detail: "go test ./..."}, make(chan permission.Decision, 1))
		}, []string{"*ui.escList", "*ui.escButton"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kinds := escapeEverywhere(t, w, tt.open)
			for _, k := range tt.want {
				if !slices.Contains(kinds, k) {
					t.Errorf("Tab never took the focus to a %s: %q", k, kinds)
				}
			}
		})
	}
	if newFile {
		t.Error("Escape in the New File dialog created the file")
	}
}

// buttonOf is the button o is: a plain one, or a dialog's escButton.
func buttonOf(o any) (*widget.Button, bool) {
	switch b := o.(type) {
	case *widget.Button:
		return b, true
	case *escButton:
		return &b.Button, true
	}
	return nil, false
}
