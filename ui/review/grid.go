package review

import (
	"fmt"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
)

// minDiffCols is the narrowest a diff wraps to.
const minDiffCols = 24

// diffGrid shows diff rows in a TextGrid without its own scrolling, wrapped
// to its width: it never cuts a line and never needs a horizontal scroll
// bar. Main goroutine only.
type diffGrid struct {
	widget.BaseWidget
	rows    []diffRow
	grid    *widget.TextGrid
	cols    int      // the width rows are wrapped to, in cells
	strikes []strike // where removed text is struck through, in the wrapped rows
	fixed   bool     // the rows come wrapped (a diffPage's piece): never wrapped again
}

// newDiffGridOf shows rows, wrapped first to cols cells until it is laid
// out.
func newDiffGridOf(rows []diffRow, cols int) *diffGrid {
	g := &diffGrid{rows: rows, grid: widget.NewTextGrid()}
	g.grid.Scroll = fyne.ScrollNone
	g.wrap(cols)
	g.ExtendBaseWidget(g)
	return g
}

// wrap lays the rows out in cols cells.
func (g *diffGrid) wrap(cols int) {
	g.cols = max(cols, minDiffCols)
	g.grid.Rows, g.strikes = wrapRows(g.rows, g.cols)
}

// Resize re-wraps the rows to the new width, as a wrapping Label does: its
// MinSize grows or shrinks, and the canvas lays the parents out again.
func (g *diffGrid) Resize(size fyne.Size) {
	if cols := int(size.Width / diffCell().Width); !g.fixed && cols != g.cols && size.Width > 0 {
		g.wrap(cols)
		g.Refresh()
	}
	g.BaseWidget.Resize(size)
}

// diffCell is the size of one grid cell, as TextGrid measures it.
func diffCell() fyne.Size {
	size := fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{Monospace: true})
	return fyne.NewSize(float32(math.Round(float64(size.Width))), float32(math.Round(float64(size.Height))))
}

// CreateRenderer implements fyne.Widget.
func (g *diffGrid) CreateRenderer() fyne.WidgetRenderer { return &diffGridRenderer{g: g} }

// diffGridRenderer draws the grid, and over it a line through the text
// of each removed line (TextGrid draws underlines but no strike-through).
type diffGridRenderer struct {
	g       *diffGrid
	lines   []*canvas.Line // one per strike, drawn over the grid
	objects []fyne.CanvasObject
}

func (r *diffGridRenderer) Layout(size fyne.Size) {
	r.g.grid.Resize(size)
	r.placeStrikes()
}

// placeStrikes has a line for each strike, across its cells at half
// their height, in the text colour a little dimmed.
func (r *diffGridRenderer) placeStrikes() {
	for len(r.lines) < len(r.g.strikes) {
		r.lines = append(r.lines, canvas.NewLine(color.Transparent))
	}
	r.lines = r.lines[:len(r.g.strikes)]
	r.objects = append(make([]fyne.CanvasObject, 0, len(r.lines)+1), r.g.grid)
	ink := strikeColor()
	cell := diffCell()
	for i, s := range r.g.strikes {
		l := r.lines[i]
		l.StrokeColor, l.StrokeWidth = ink, 1
		y := (float32(s.row) + 0.5) * cell.Height
		l.Position1 = fyne.NewPos(float32(s.from)*cell.Width, y)
		l.Position2 = fyne.NewPos(float32(s.to)*cell.Width, y)
		r.objects = append(r.objects, l)
	}
}

// strikeColor is the text colour at two thirds: it crosses the text out
// and leaves it readable.
func strikeColor() color.Color {
	c := color.NRGBAModel.Convert(theme.Color(theme.ColorNameForeground)).(color.NRGBA)
	c.A = uint8(int(c.A) * 2 / 3)
	return c
}

// MinSize is narrow (the grid wraps to any width) and as tall as the rows
// wrapped to the current width.
func (r *diffGridRenderer) MinSize() fyne.Size {
	cell := diffCell()
	return fyne.NewSize(cell.Width*minDiffCols, cell.Height*float32(len(r.g.grid.Rows)))
}

func (r *diffGridRenderer) Refresh() {
	r.placeStrikes()
	for _, l := range r.lines {
		l.Refresh()
	}
	r.g.grid.Refresh()
}

func (r *diffGridRenderer) Objects() []fyne.CanvasObject {
	if r.objects == nil {
		r.placeStrikes()
	}
	return r.objects
}

func (r *diffGridRenderer) Destroy() {}

// NewDiffGrid renders fc's diff, unified and wrapped to its width, from
// its structured hunks, coloured from the current theme, in a scroll that
// draws only what is in view: the git pane's diff of a file against HEAD.
// Main goroutine only.
func NewDiffGrid(fc changeset.FileChange) fyne.CanvasObject {
	p, syn := newPalette(), newFileSyntax(fc)
	var blocks []*pageBlock
	for _, h := range changeset.Hunks(fc) {
		rows := []diffRow{noteRow(p, fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldStart, h.OldLines, h.NewStart, h.NewLines))}
		blocks = append(blocks, rowsBlock(append(rows, unifiedRows(p, syn, h)...)))
	}
	if len(blocks) == 0 {
		blocks = []*pageBlock{rowsBlock([]diffRow{noteRow(p, "(no textual change)")})}
	}
	return newDiffPage(blocks)
}
