package ui

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// fileView shows a file read-only with line numbers. The page inside its
// Scroll is as large as the whole text, but only the rows and columns in
// view are in its TextGrid, so a file of many thousand lines costs no more
// than a screenful; the line numbers stay put when it scrolls sideways.
// Like every widget it must be used on the main goroutine.
type fileView struct {
	widget.BaseWidget

	src     sourceText
	mark    int // the highlighted line, 1-based; 0 for none
	pending int // a line to bring into view at the next layout; 0 for none

	grid   *widget.TextGrid
	page   *fyne.Container
	scroll *container.Scroll

	shown    span // what grid holds now
	colors   [2]color.NRGBA
	textSize float32
	styles   rowStyles
}

func newFileView(src sourceText) *fileView {
	v := &fileView{src: src, grid: widget.NewTextGrid()}
	v.page = container.New(pageLayout{v}, v.grid)
	v.scroll = container.NewScroll(v.page)
	v.scroll.OnScrolled = func(fyne.Position) { v.place() }
	v.ExtendBaseWidget(v)
	return v
}

// CreateRenderer links the view to its renderer (view_render.go).
func (v *fileView) CreateRenderer() fyne.WidgetRenderer {
	v.ExtendBaseWidget(v)
	v.updateStyles()
	return fileViewRenderer{v}
}

// showLine highlights line (clamped to the text) and scrolls it into view,
// now or, when the view has no size yet, at its first layout.
func (v *fileView) showLine(line int) {
	v.mark = min(max(line, 1), len(v.src.lines))
	v.pending = v.mark
	v.shown = span{}
	v.place()
	v.reveal()
}

// cellSize is the size of one grid cell, measured as TextGrid measures it.
func (v *fileView) cellSize() fyne.Size {
	th := v.Theme()
	size := fyne.MeasureText("M", th.Size(theme.SizeNameText), fyne.TextStyle{Monospace: true})
	return fyne.NewSize(float32(math.Round(float64(size.Width))), float32(math.Round(float64(size.Height))))
}

// place fills the grid with the rows and columns in view and puts it where
// they are on the page.
func (v *fileView) place() {
	cell := v.cellSize()
	off, size := v.scroll.Offset, v.scroll.Size()
	sp := span{
		first: int(off.Y / cell.Height),
		count: int(size.Height/cell.Height) + 2,
		col:   int(math.Round(float64(off.X / cell.Width))),
		cols:  max(int(size.Width/cell.Width)+1-v.src.gutter(), 1),
	}
	if sp != v.shown {
		v.shown = sp
		v.grid.Rows = buildRows(v.src, sp, v.mark, v.styles)
		v.grid.Refresh()
	}
	v.grid.Move(fyne.NewPos(off.X, float32(sp.first)*cell.Height))
	if gridSize := fyne.NewSize(size.Width, float32(sp.count)*cell.Height); gridSize != v.grid.Size() {
		v.grid.Resize(gridSize)
	}
}

// reveal scrolls the pending line into view, a third of the way down,
// unless it is in view already.
func (v *fileView) reveal() {
	size := v.scroll.Size()
	if v.pending == 0 || size.Height == 0 {
		return
	}
	cell := v.cellSize()
	top := float32(v.pending-1) * cell.Height
	v.pending = 0
	off := v.scroll.Offset
	if top >= off.Y && top+cell.Height <= off.Y+size.Height && off.X == 0 {
		return
	}
	v.scroll.ScrollToOffset(fyne.NewPos(0, max(top-size.Height/3, 0)))
	v.place()
}

// updateStyles takes the gutter and mark colours and the text size from
// the theme and reports whether they changed.
func (v *fileView) updateStyles() bool {
	th, variant := v.Theme(), fyne.CurrentApp().Settings().ThemeVariant()
	colors := [2]color.NRGBA{
		nrgba(th.Color(theme.ColorNamePlaceHolder, variant)),
		nrgba(th.Color(theme.ColorNameSelection, variant)),
	}
	textSize := th.Size(theme.SizeNameText)
	if colors == v.colors && textSize == v.textSize && v.styles.gutter != nil {
		return false
	}
	v.colors, v.textSize = colors, textSize
	v.styles = rowStyles{
		gutter: &widget.CustomTextGridStyle{FGColor: colors[0]},
		mark:   &widget.CustomTextGridStyle{BGColor: colors[1]},
	}
	v.shown = span{}
	return true
}

func nrgba(c color.Color) color.NRGBA {
	return color.NRGBAModel.Convert(c).(color.NRGBA)
}

// pageLayout sizes the page to the whole text and places the grid on it.
type pageLayout struct{ v *fileView }

func (l pageLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	cell := l.v.cellSize()
	cols := l.v.src.gutter() + l.v.src.width + 1
	return fyne.NewSize(cell.Width*float32(cols), cell.Height*float32(len(l.v.src.lines)))
}

func (l pageLayout) Layout([]fyne.CanvasObject, fyne.Size) {
	l.v.place()
}
