package editor

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// TestFloatStaysInTheEditor: a box (completion list, hover) too tall for
// the room below its line goes above it when it fits there, and is cut to
// the larger side when it fits on neither, never reaching past the
// editor's edges (it was drawn over the panes below the editor).
func TestFloatStaysInTheEditor(t *testing.T) {
	e := newTestEditor(t, "package main\n", true)
	h := e.Size().Height // the 600x400 test window, less its padding
	const line = 16
	tests := []struct {
		name      string
		y, height float32
		wantY     float32
		wantH     float32
	}{
		{"fits below", 40, 100, 40, 100},
		{"goes above", h - 20, 100, h - 20 - line - 100, 100},
		{"cut below, more room there", h / 3, h, h / 3, h - h/3},
		{"cut above, more room there", h - 30, h, 0, h - 30 - line},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			box := e.showFloat(widget.NewLabel("x"), fyne.NewPos(10, tc.y), fyne.NewSize(200, tc.height), line)
			defer e.hideFloat(box)
			pos, size := box.Position(), box.Size()
			if pos.Y != tc.wantY || size.Height != tc.wantH {
				t.Errorf("box at y %v, height %v; want %v, %v", pos.Y, size.Height, tc.wantY, tc.wantH)
			}
			if pos.Y < 0 || pos.Y+size.Height > h {
				t.Errorf("box %v+%v leaves the editor (height %v)", pos.Y, size.Height, h)
			}
		})
	}
}

// TestFloatIsNeverWiderThanTheEditor: a box wider than a narrow editor is
// cut to its width, at its left edge, not drawn over what is beside it.
func TestFloatIsNeverWiderThanTheEditor(t *testing.T) {
	e := newTestEditor(t, "package main\n", true)
	w := e.Size().Width
	box := e.showFloat(widget.NewLabel("x"), fyne.NewPos(50, 40), fyne.NewSize(w+300, 100), 16)
	defer e.hideFloat(box)
	if pos, size := box.Position(), box.Size(); pos.X < 0 || pos.X+size.Width > w {
		t.Errorf("box x %v, width %v leaves the editor (width %v)", pos.X, size.Width, w)
	}
}
