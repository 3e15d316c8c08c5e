package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// outputView is a bounded, append-only text pane (the Run output, the Eval
// transcript): it keeps the last max lines, counts the ones it dropped and
// follows the end. A TextGrid with its own scrolling draws only what is on
// screen, so thousands of lines stay cheap. Main goroutine only.
type outputView struct {
	grid    *widget.TextGrid
	max     int
	dropped int
}

func newOutputView(max int) *outputView {
	g := widget.NewTextGrid()
	g.Scroll = fyne.ScrollBoth
	return &outputView{grid: g, max: max}
}

// append adds lines (each without its newline) and scrolls to the end.
func (o *outputView) append(lines ...string) {
	for _, l := range lines {
		o.grid.Rows = append(o.grid.Rows, rowOf(l))
	}
	if over := len(o.grid.Rows) - o.max; over > 0 {
		o.grid.Rows = append(o.grid.Rows[:0:0], o.grid.Rows[over:]...)
		o.dropped += over
	}
	o.grid.Refresh()
	o.grid.ScrollToBottom()
}

// clear empties the view.
func (o *outputView) clear() {
	o.grid.Rows = nil
	o.dropped = 0
	o.grid.Refresh()
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
		for _, c := range r.Cells {
			b.WriteRune(c.Rune)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func rowOf(line string) widget.TextGridRow {
	line = strings.TrimRight(line, "\r")
	cells := make([]widget.TextGridCell, 0, len(line))
	for _, r := range line {
		cells = append(cells, widget.TextGridCell{Rune: r})
	}
	return widget.TextGridRow{Cells: cells}
}
