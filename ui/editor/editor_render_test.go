package editor

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"trestle/app/textbuf"
)

// drawnColor returns the colour the grid's renderer holds for the text of
// cell col in grid row row: what is painted, not what grid.Rows asks for.
func drawnColor(t *testing.T, e *Editor, row, col int) color.Color {
	t.Helper()
	content := test.WidgetRenderer(e.grid).Objects()[0].(fyne.Widget)
	for _, r := range test.WidgetRenderer(content).Objects() {
		if int(r.Position().Y/e.look.cell.Height) != row {
			continue
		}
		objs := test.WidgetRenderer(r.(fyne.Widget)).Objects()
		return objs[col*3+1].(*canvas.Text).Color
	}
	t.Fatalf("grid row %d is not drawn", row)
	return nil
}

// TestEditorRedrawsStyleOnlyChanges types a block comment open and shut
// above a line and checks the colours drawn for that line's unchanged
// runes. Fyne's TextGrid.SetRow does not refresh its cells in v2.7.1, so
// the editor must keep replacing Rows and refreshing the grid.
func TestEditorRedrawsStyleOnlyChanges(t *testing.T) {
	e := newTestEditor(t, "package p\n\nfunc f() {}\n", true)
	st := e.look.styles
	col := gutterWidth(e.buf.LineCount()) // "func" on line 3 (grid row 2)
	if got := drawnColor(t, e, 2, col); got != st.kinds[textbuf.Keyword].TextColor() {
		t.Fatalf("func drawn in %v before the edit", got)
	}
	e.moveTo(textbuf.Pos{Line: 1}, false)
	test.Type(e.page, "/*")
	if got := drawnColor(t, e, 2, col); got != st.kinds[textbuf.Comment].TextColor() {
		t.Errorf("func drawn in %v inside an open comment, want the comment colour", got)
	}
	test.Type(e.page, "*/")
	if got := drawnColor(t, e, 2, col); got != st.kinds[textbuf.Keyword].TextColor() {
		t.Errorf("func drawn in %v after the comment closed, want the keyword colour", got)
	}
}
