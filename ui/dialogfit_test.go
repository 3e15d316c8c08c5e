package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
	"trestle/app/store"
)

// longName is a file name as long as a deep project path makes one.
var longName = strings.Repeat("a_rather_long_folder_name/", 7) + "main.go"

// dialogWidthBound is the widest a dialog may be: its text's width and
// Fyne's padding around it and around the pop-up.
const dialogWidthBound = dialogTextWidth + 64

// checkDialogFits fails t when the dialog on top of w would widen a
// 1024-wide window or run wider than dialogWidthBound, or when its text
// lost want (the whole name stays in the message).
func checkDialogFits(t *testing.T, w *Window, want string) {
	t.Helper()
	top := w.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog shown")
	}
	if got := top.MinSize().Width; got > dialogWidthBound {
		t.Errorf("the dialog asks for %v px, want at most %v", got, float32(dialogWidthBound))
	}
	if got := w.win.Canvas().Size().Width; got > 1024 {
		t.Errorf("the window grew to %v px", got)
	}
	for _, o := range test.LaidOutObjects(top) {
		if tx, ok := o.(*canvas.Text); ok && tx.MinSize().Width > dialogTextWidth {
			t.Errorf("a row of the dialog's text runs %v px wide: %q", tx.MinSize().Width, tx.Text)
		}
	}
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok && l.Wrapping != fyne.TextWrapOff && l.Size().Height < l.MinSize().Height {
			t.Errorf("a label of the dialog has %v px for its %v px of rows: %q", l.Size().Height, l.MinSize().Height, l.Text)
		}
	}
	if msg := overlayText(w); !strings.Contains(msg, want) {
		t.Errorf("the dialog's text lost %q:\n%s", want, msg)
	}
}

// TestUnsavedEditsDialogWraps: Apply with unsaved edits in a file of a
// long name asks in a dialog that keeps to dialogWidthBound (its title
// grew it to ~1200 px), with the whole name in its text.
func TestUnsavedEditsDialogWraps(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"go.mod": "module example.com/demo\n", longName: mainGo})
	w.Window().Resize(fyne.NewSize(1024, 700))
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	m := changeset.NewManager(db, w.project)
	if err := w.Open(context.Background(), resolved(t, w, longName), 0); err != nil {
		t.Fatal(err)
	}
	typeInto(t, w, longName, "// mine, unsaved\n")
	cs, err := m.Propose(w.review.currentReader(), changeset.Proposal{Title: "Say hello", Client: "claude-code",
		Changes: []changeset.Change{{Path: longName, Action: changeset.ActionEdit, Edits: []changeset.Edit{{OldText: `"hi"`, NewText: `"hello"`}}}}})
	if err != nil {
		t.Fatal(err)
	}
	startChanges(t, w, m)
	if err := w.ApplyAsPerson(context.Background(), cs.ID); err != nil {
		t.Fatal(err)
	}
	checkDialogFits(t, w, longName+" has unsaved edits")
}

// TestDialogLabelsWrap: a dialog whose text is a plain label (the revert's
// "Unsaved edits" dialog) or a label in a vertical scroll keeps to
// dialogWidthBound, its text wrapped, not cut.
func TestDialogLabelsWrap(t *testing.T) {
	w := newTestWindow(t)
	w.Window().Resize(fyne.NewSize(1024, 700))
	msg := longName + " has unsaved edits in the editor.\n\nRevert writes files back only while they are as cs-1 left them, " +
		"so it cannot keep those edits, saved or not: undo them (Ctrl+Z) or close the tab and discard them, then revert again."
	for _, content := range map[string]fyne.CanvasObject{
		"label":  widget.NewLabel(msg),
		"scroll": container.NewVScroll(widget.NewLabel(msg)),
	} {
		w.dialogs.show(dialog.NewCustom("Unsaved edits in "+longName+", "+longName, "Cancel", content, w.win))
		checkDialogFits(t, w, longName+" has unsaved edits")
		w.dialogs.escapeTop()
	}
}
