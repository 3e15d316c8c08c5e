package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"trestle/app/textbuf"
)

// TestUndoOfALongLineScrollsBackToColumnZero: typing a long line scrolls
// right; undoing it puts the caret at column 0, and the view follows.
func TestUndoOfALongLineScrollsBackToColumnZero(t *testing.T) {
	e := newTestEditor(t, "x\n", false)
	e.moveTo(textbuf.Pos{Line: 1}, false)
	test.Type(e.page, strings.Repeat("long ", 60))
	if e.scroll.Offset.X == 0 {
		t.Fatal("typing a 300-column line did not scroll right")
	}
	e.undo()
	if e.caret.Col != 0 || e.scroll.Offset.X != 0 {
		t.Errorf("after undo: caret %v, horizontal offset %v; want column 0 in view (offset 0)", e.caret, e.scroll.Offset.X)
	}
}

// TestWheelScrollsThreeLinesANotch: one notch of a mouse wheel (Fyne's 25
// px on Linux and Windows) moves the view three lines.
func TestWheelScrollsThreeLinesANotch(t *testing.T) {
	e := newTestEditor(t, strings.Repeat("line\n", 500), false)
	cell := e.look.cell.Height
	e.page.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -wheelNotch)})
	if got := e.scroll.Offset.Y / cell; got < 2.99 || got > 3.01 {
		t.Errorf("one notch down scrolled %.2f lines, want 3", got)
	}
	e.page.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, wheelNotch)})
	if e.scroll.Offset.Y != 0 {
		t.Errorf("one notch up left the view at %v, want the top", e.scroll.Offset.Y)
	}
}
