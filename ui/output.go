package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"trestle/app/textbuf"
)

// outputView is a bounded, append-only text pane (the Run output, the Eval
// transcript): it keeps the last max lines, counts the ones it dropped and
// follows the end. A TextGrid with its own scrolling draws only what is on
// screen, so thousands of lines stay cheap. Main goroutine only.
type outputView struct {
	grid    *widget.TextGrid
	box     *fyne.Container // the grid in the room it fills: what a pane shows
	max     int
	dropped int
	// style, when set, styles each new row (the Run pane's links).
	style func(row *widget.TextGridRow, line string)
}

func newOutputView(max int) *outputView {
	g := widget.NewTextGrid()
	g.Scroll = fyne.ScrollBoth
	return wrapOutput(g, g, max)
}

// wrapOutput makes an outputView of grid, hidden while it has no rows;
// shown is the widget that holds it (grid, or a widget that extends it).
func wrapOutput(grid *widget.TextGrid, shown fyne.Widget, max int) *outputView {
	o := &outputView{grid: grid, max: max}
	o.box = container.New(fillShown{}, shown)
	o.fit()
	return o
}

// fit hides the grid while it has no rows and shows it when it has some.
// Fyne's TextGrid fills all its room with cells (a text, a rectangle and a
// line each) whether or not it has rows: an empty pane made ~3,300 cells,
// laid out and walked on every frame. A hidden grid is not laid out
// (fillShown) nor drawn.
func (o *outputView) fit() {
	switch {
	case len(o.grid.Rows) == 0 && o.grid.Visible():
		o.grid.Hide()
	case len(o.grid.Rows) > 0 && !o.grid.Visible():
		o.grid.Show()
		o.box.Refresh() // lays the grid out: it was not while hidden
	}
}

// fillShown gives each shown object all the room and leaves hidden ones
// alone; its minimum size is its objects', shown or not, so hiding an
// empty grid moves nothing.
type fillShown struct{}

func (fillShown) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		if o.Visible() {
			o.Move(fyne.NewPos(0, 0))
			o.Resize(size)
		}
	}
}

func (fillShown) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var min fyne.Size
	for _, o := range objs {
		min = min.Max(o.MinSize())
	}
	return min
}

// append adds lines (each without its newline) and scrolls to the end.
func (o *outputView) append(lines ...string) {
	for _, l := range lines {
		row := rowOf(l)
		if o.style != nil {
			o.style(&row, l)
		}
		o.grid.Rows = append(o.grid.Rows, row)
	}
	if over := len(o.grid.Rows) - o.max; over > 0 {
		o.grid.Rows = append(o.grid.Rows[:0:0], o.grid.Rows[over:]...)
		o.dropped += over
	}
	o.fit()
	o.grid.Refresh()
	o.grid.ScrollToBottom()
}

// clear empties the view.
func (o *outputView) clear() {
	o.grid.Rows = nil
	o.dropped = 0
	o.grid.Refresh()
	o.fit()
}

// text returns the last tail lines (all when tail <= 0), with a first line
// saying how many were dropped when any were.
func (o *outputView) text(tail int) string {
	rows := o.grid.Rows
	skipped := o.dropped
	if tail > 0 && tail < len(rows) {
		skipped += len(rows) - tail
		rows = rows[len(rows)-tail:]
	}
	var b strings.Builder
	if skipped > 0 {
		fmt.Fprintf(&b, "[%d earlier lines not shown]\n", skipped)
	}
	for _, r := range rows {
		b.WriteString(rowText(r))
		b.WriteByte('\n')
	}
	return b.String()
}

// outputTabWidth is how wide a tab in output is: go test indents stack
// lines and t.Log output with tabs.
const outputTabWidth = 4

// rowOf is a line as grid cells, tabs expanded to spaces: TextGrid expects
// a tab's padding cells after it and would otherwise draw over the runes
// that follow ("\t/home/x.go:3" showed as "\t/x.go:3"), and one cell a
// column keeps taps and text in step.
func rowOf(line string) widget.TextGridRow {
	line = strings.TrimRight(line, "\r")
	runes := textbuf.ExpandTabs(nil, line, outputTabWidth)
	cells := make([]widget.TextGridCell, len(runes))
	for i, r := range runes {
		cells[i] = widget.TextGridCell{Rune: r}
	}
	return widget.TextGridRow{Cells: cells}
}

// Output is the text of the pane agents read as name (agentText: the Run
// pane's "run", the Eval pane's "eval"; any other name reads Run), its last
// tail lines when tail > 0. One bounded main-thread call; safe for
// concurrent use from any goroutine but the main one.
func (w *Window) Output(ctx context.Context, name string, tail int) (string, error) {
	return callValue(ctx, w.main, 0, func() string {
		p := w.panes.readable(name)
		if p == nil {
			p = w.panes.runView
		}
		_, text := p.agentText(tail)
		return text
	})
}
