package editor

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/gitstatus"
	"trestle/app/textbuf"
)

// caretWidth is the width of the drawn caret, in pixels.
const caretWidth = 2

// editorLook is what the editor takes from the theme: the grid styles,
// the caret colour and the size of one cell.
type editorLook struct {
	colors   [9]color.NRGBA // the theme colours the styles were made from
	textSize float32
	cell     fyne.Size
	styles   rowStyles
}

// editorRenderer draws an editor: its find bar (when shown) over its
// Scroll.
type editorRenderer struct{ e *Editor }

// CreateRenderer links the editor to its renderer.
func (e *Editor) CreateRenderer() fyne.WidgetRenderer {
	e.ExtendBaseWidget(e)
	return editorRenderer{e}
}

// Layout sizes the view and draws the rows it now holds: when the view
// grows (a split dragged) but the page, as large as the text, keeps its
// size, nothing else would draw the rows it uncovers.
func (r editorRenderer) Layout(size fyne.Size) {
	r.e.content.Resize(size)
	r.e.float.Resize(size)
	r.e.place()
}
func (r editorRenderer) MinSize() fyne.Size { return r.e.content.MinSize() }
func (r editorRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.e.content, r.e.float}
}
func (r editorRenderer) Destroy() {}

// Refresh redraws the page, which returns early when nothing changed.
func (r editorRenderer) Refresh() { r.e.page.Refresh() }

// Page is the editor's page inside its Scroll: as large as the whole
// text, it takes the mouse and keyboard (editor_input.go) and holds the
// grid of visible rows and the caret.
type Page struct {
	widget.BaseWidget
	e *Editor
}

func newEditorPage(e *Editor) *Page {
	p := &Page{e: e}
	p.ExtendBaseWidget(p)
	return p
}

// CreateRenderer links the page to its renderer.
func (p *Page) CreateRenderer() fyne.WidgetRenderer {
	p.ExtendBaseWidget(p)
	p.e.updateLook()
	return pageRenderer{p.e}
}

// pageRenderer lays out the visible rows and the caret on the page.
type pageRenderer struct{ e *Editor }

func (r pageRenderer) Layout(fyne.Size) {
	r.e.place()
	if r.e.pending {
		r.e.revealCaret()
	}
}

// MinSize is the size of the whole text with its gutter.
func (r pageRenderer) MinSize() fyne.Size {
	e := r.e
	cols := gutterWidth(e.buf.LineCount()) + e.maxCells + 1
	return fyne.NewSize(e.look.cell.Width*float32(cols), e.look.cell.Height*float32(e.buf.LineCount()))
}

// Refresh rebuilds the rows only when the text, caret, selection, view or
// theme changed.
func (r pageRenderer) Refresh() {
	if r.e.updateLook() {
		r.e.stale = true
	}
	r.e.place()
}

func (r pageRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.e.grid, r.e.cursor, r.e.wheel}
}

func (r pageRenderer) Destroy() {}

// place fills the grid with the rows and columns in view, puts it where
// they are on the page and puts the caret on it.
func (e *Editor) place() {
	cell := e.look.cell
	if cell.Height == 0 {
		return
	}
	off, size := e.scroll.Offset, e.scroll.Size()
	gutter := gutterWidth(e.buf.LineCount())
	sp := span{
		first: int(off.Y / cell.Height),
		count: int(size.Height/cell.Height) + 2,
		col:   int(math.Round(float64(off.X / cell.Width))),
		cols:  max(int(size.Width/cell.Width)+1-gutter, 1),
	}
	if sp != e.shown || e.stale {
		e.shown, e.stale = sp, false
		e.grid.Rows = buildRows(e.rowSource(), sp, e.look.styles)
		e.markDiagnostics(e.grid.Rows, sp, gutter)
		e.grid.Refresh()
	}
	e.grid.Move(fyne.NewPos(off.X, float32(sp.first)*cell.Height))
	if gridSize := fyne.NewSize(size.Width, float32(sp.count)*cell.Height); gridSize != e.grid.Size() {
		e.grid.Resize(gridSize)
	}
	e.placeCaret(sp, gutter)
	e.wheel.Move(off)
	e.wheel.Resize(size)
}

func (e *Editor) rowSource() rowSource {
	return rowSource{buf: e.buf, hl: e.hl, tabWidth: e.tabWidth, caretLine: e.caret.Line, sel: e.Selection(),
		marks: e.bars.currentMatches(), gitMarks: e.gitMarks, brackets: e.matchingBrackets()}
}

// placeCaret draws the caret where it is, when that is in view.
func (e *Editor) placeCaret(sp span, gutter int) {
	cell := e.look.cell
	col := textbuf.CellOf(e.buf.Line(e.caret.Line), e.caret.Col, e.tabWidth)
	inView := e.caret.Line >= sp.first && e.caret.Line < sp.first+sp.count && col >= sp.col && col <= sp.col+sp.cols
	if !inView {
		e.cursor.Hide()
		return
	}
	x := e.scroll.Offset.X + float32(gutter+col-sp.col)*cell.Width
	e.cursor.Move(fyne.NewPos(x, float32(e.caret.Line)*cell.Height))
	e.cursor.Resize(fyne.NewSize(caretWidth, cell.Height))
	e.cursor.Show()
}

// revealCaret scrolls the caret into view, by as little as it takes, or,
// when the editor has no size yet, at its next layout.
func (e *Editor) revealCaret() {
	size := e.scroll.Size()
	if size.Height == 0 || e.look.cell.Height == 0 {
		e.pending = true
		return
	}
	e.pending = false
	cell := e.look.cell
	off := e.scroll.Offset
	y := float32(e.caret.Line) * cell.Height
	centre := e.centre
	e.centre = false
	switch {
	case centre && (y < off.Y || y+cell.Height > off.Y+size.Height):
		off.Y = max(0, y-size.Height/3) // a jump lands a third down, with context above
	case y < off.Y:
		off.Y = y
	case y+cell.Height > off.Y+size.Height:
		off.Y = y + cell.Height - size.Height
	}
	x := float32(textbuf.CellOf(e.buf.Line(e.caret.Line), e.caret.Col, e.tabWidth)) * cell.Width
	textWidth := size.Width - float32(gutterWidth(e.buf.LineCount())+1)*cell.Width
	switch {
	case x < off.X:
		off.X = x
	case x > off.X+textWidth:
		off.X = x - textWidth
	}
	e.scrollTo(off)
}

// centreLine scrolls line (0-based) a third of the way down the view,
// unless it is in view already.
func (e *Editor) centreLine(line int) {
	size := e.scroll.Size()
	cell := e.look.cell
	y := float32(line) * cell.Height
	off := e.scroll.Offset
	if size.Height == 0 || y >= off.Y && y+cell.Height <= off.Y+size.Height {
		return
	}
	e.scrollTo(fyne.NewPos(0, max(y-size.Height/3, 0)))
}

func (e *Editor) scrollTo(off fyne.Position) {
	off.X, off.Y = max(off.X, 0), max(off.Y, 0)
	if off == e.scroll.Offset {
		return
	}
	e.scroll.ScrollToOffset(off)
	e.place()
}

// posAt returns the text position nearest to pos on the page: the
// boundary between runes closest to the pointer.
func (e *Editor) posAt(pos fyne.Position) textbuf.Pos {
	line, fx := e.cellAt(pos)
	at := max(int(math.Round(float64(fx))), 0)
	return textbuf.Pos{Line: line, Col: textbuf.ColAt(e.buf.Line(line), at, e.tabWidth)}
}

// runeAt returns the position of the rune under pos on the page.
func (e *Editor) runeAt(pos fyne.Position) textbuf.Pos {
	line, fx := e.cellAt(pos)
	text := e.buf.Line(line)
	col := textbuf.ColAt(text, max(int(fx), 0), e.tabWidth)
	if col > 0 && textbuf.CellOf(text, col, e.tabWidth) > int(fx) {
		col-- // ColAt rounded up past the middle of a tab
	}
	return textbuf.Pos{Line: line, Col: col}
}

// cellAt returns the line at pos on the page and the display column,
// fractional, of the text there.
func (e *Editor) cellAt(pos fyne.Position) (int, float32) {
	cell := e.look.cell
	if cell.Height == 0 {
		return e.caret.Line, 0
	}
	line := min(max(int(pos.Y/cell.Height), 0), e.buf.LineCount()-1)
	gutter := gutterWidth(e.buf.LineCount())
	return line, (pos.X-e.scroll.Offset.X)/cell.Width - float32(gutter) + float32(e.shown.col)
}

// updateLook takes the colours, text size and cell size from the theme
// and reports whether they changed.
func (e *Editor) updateLook() bool {
	th := e.page.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	names := []fyne.ThemeColorName{theme.ColorNameDisabled, theme.ColorNameHover, theme.ColorNameSelection,
		theme.ColorNamePrimary, theme.ColorNameSuccess, theme.ColorNamePlaceHolder, theme.ColorNameWarning,
		theme.ColorNameForeground, theme.ColorNameBackground}
	var colors [9]color.NRGBA
	for i, n := range names {
		colors[i] = nrgba(th.Color(n, v))
	}
	textSize := th.Size(theme.SizeNameText)
	if colors == e.look.colors && textSize == e.look.textSize && e.look.styles.gutter != nil {
		return false
	}
	e.look = editorLook{colors: colors, textSize: textSize, cell: cellSize(textSize), styles: newRowStyles(colors, e.hl != nil)}
	e.cursor.FillColor = colors[3]
	e.cursor.Refresh()
	return true
}

// newRowStyles makes the grid styles from the theme colours updateLook
// reads, in its order; without syntax, every kind is plain.
func newRowStyles(c [9]color.NRGBA, syntax bool) rowStyles {
	st := rowStyles{
		gutter:  &widget.CustomTextGridStyle{FGColor: mix(c[7], c[8], 0.7)},
		current: &widget.CustomTextGridStyle{BGColor: c[1]},
	}
	fg := [textbuf.Number + 1]color.Color{textbuf.Keyword: c[3], textbuf.String: c[4], textbuf.Comment: c[5], textbuf.Number: c[6]}
	st.git[gitstatus.Added] = &widget.CustomTextGridStyle{FGColor: c[4]}    // success
	st.git[gitstatus.Modified] = &widget.CustomTextGridStyle{FGColor: c[3]} // primary
	st.git[gitstatus.Deleted] = &widget.CustomTextGridStyle{FGColor: theme.Color(theme.ColorNameError)}
	mark := c[6] // the warning colour, faint: find's matches
	mark.A = 0x55
	bracket := c[3] // the primary colour, faint: matching brackets
	bracket.A = 0x66
	for k := range st.kinds {
		if syntax && fg[k] != nil {
			st.kinds[k] = &widget.CustomTextGridStyle{FGColor: fg[k]}
			st.selected[k] = &widget.CustomTextGridStyle{FGColor: fg[k], BGColor: c[2]}
			st.marked[k] = &widget.CustomTextGridStyle{FGColor: fg[k], BGColor: mark}
			st.bracket[k] = &widget.CustomTextGridStyle{FGColor: fg[k], BGColor: bracket}
			continue
		}
		st.selected[k] = &widget.CustomTextGridStyle{BGColor: c[2]}
		st.marked[k] = &widget.CustomTextGridStyle{BGColor: mark}
		st.bracket[k] = &widget.CustomTextGridStyle{BGColor: bracket}
	}
	return st
}

// cellSize is the size of one grid cell at textSize, measured as TextGrid
// measures it.
func cellSize(textSize float32) fyne.Size {
	size := fyne.MeasureText("M", textSize, fyne.TextStyle{Monospace: true})
	return fyne.NewSize(float32(math.Round(float64(size.Width))), float32(math.Round(float64(size.Height))))
}

// mix is a weighted blend of fg and bg (w of fg): the gutter's numbers,
// 70% of the way from the page to the text, read in both themes (3:1 or
// more; the theme's disabled colour, used before, is too faint on either).
func mix(fg, bg color.NRGBA, w float64) color.NRGBA {
	m := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*w + float64(b)*(1-w))) }
	return color.NRGBA{R: m(fg.R, bg.R), G: m(fg.G, bg.G), B: m(fg.B, bg.B), A: 0xff}
}

func nrgba(c color.Color) color.NRGBA {
	return color.NRGBAModel.Convert(c).(color.NRGBA)
}
