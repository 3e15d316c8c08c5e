package ui

import (
	"strconv"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/ui/editor"
)

// What the window's tests see of an editor beyond its API: what it draws,
// found in its rendered tree as a person would see it.

// walkTree calls fn on o and everything drawn inside it, depth first,
// until fn returns true, and reports whether it did.
func walkTree(o fyne.CanvasObject, fn func(fyne.CanvasObject) bool) bool {
	if fn(o) {
		return true
	}
	var kids []fyne.CanvasObject
	switch o := o.(type) {
	case *fyne.Container:
		kids = o.Objects
	case fyne.Widget:
		kids = test.WidgetRenderer(o).Objects()
	}
	for _, k := range kids {
		if walkTree(k, fn) {
			return true
		}
	}
	return false
}

// gridRows returns the rows e's text grid shows now.
func gridRows(t *testing.T, e *editor.Editor) []widget.TextGridRow {
	t.Helper()
	var grid *widget.TextGrid
	walkTree(e, func(o fyne.CanvasObject) bool {
		grid, _ = o.(*widget.TextGrid)
		return grid != nil
	})
	if grid == nil {
		t.Fatal("the editor draws no text grid")
	}
	return grid.Rows
}

// gutterWidth is the width in cells of the line numbers an editor of n
// lines draws: the digits and two spaces.
func gutterWidth(n int) int { return len(strconv.Itoa(n)) + 2 }

// desktopCtrlS is Ctrl+S as the editor hears it.
var desktopCtrlS = desktop.CustomShortcut{KeyName: fyne.KeyS, Modifier: fyne.KeyModifierShortcutDefault}
