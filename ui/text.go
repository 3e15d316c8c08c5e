package ui

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2/widget"
)

// tabWidth is the tab stop distance in cells, Fyne's default for TextGrid.
const tabWidth = 4

// sourceText is a file's text split for display. It is plain data, built
// off the main goroutine and never changed.
type sourceText struct {
	lines []string // without line endings
	width int      // cells in the widest line, tabs expanded
}

func newSourceText(text string) sourceText {
	lines := strings.Split(text, "\n")
	if len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // a final newline does not start a line
	}
	width := 0
	for i, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		lines[i] = line
		width = max(width, cellWidth(line))
	}
	return sourceText{lines: lines, width: width}
}

// gutter is the width in cells of the line number column: the digits of
// the last line number and two spaces.
func (s sourceText) gutter() int {
	return len(strconv.Itoa(len(s.lines))) + 2
}

// cellWidth is the number of cells line takes with tabs expanded.
func cellWidth(line string) int {
	if !strings.ContainsRune(line, '\t') {
		return utf8.RuneCountInString(line)
	}
	return len(expandTabs(line))
}

// expandTabs returns the runes of line with each tab replaced by spaces up
// to the next tab stop.
func expandTabs(line string) []rune {
	out := make([]rune, 0, len(line))
	for _, r := range line {
		if r != '\t' {
			out = append(out, r)
			continue
		}
		for stop := (len(out)/tabWidth + 1) * tabWidth; len(out) < stop; {
			out = append(out, ' ')
		}
	}
	return out
}

// span is the part of a sourceText a grid shows: rows first..first+count
// (0-based lines) and text columns col..col+cols after the gutter.
type span struct {
	first, count int
	col, cols    int
}

// rowStyles are the grid styles for the line numbers and the marked line.
type rowStyles struct {
	gutter, mark widget.TextGridStyle
}

// buildRows returns the grid rows for sp of s: each starts with the right
// aligned line number, and line mark (1-based; 0 for none) gets the mark
// style across the whole row.
func buildRows(s sourceText, sp span, mark int, st rowStyles) []widget.TextGridRow {
	end := min(sp.first+sp.count, len(s.lines))
	if sp.first >= end {
		return nil
	}
	digits := s.gutter() - 2
	rows := make([]widget.TextGridRow, 0, end-sp.first)
	for i := sp.first; i < end; i++ {
		num := strconv.Itoa(i + 1)
		cells := make([]widget.TextGridCell, 0, s.gutter()+sp.cols)
		for _, r := range strings.Repeat(" ", digits-len(num)) + num + "  " {
			cells = append(cells, widget.TextGridCell{Rune: r, Style: st.gutter})
		}
		text := expandTabs(s.lines[i])
		text = text[min(sp.col, len(text)):min(sp.col+sp.cols, len(text))]
		for _, r := range text {
			cells = append(cells, widget.TextGridCell{Rune: r})
		}
		row := widget.TextGridRow{Cells: cells}
		if i+1 == mark {
			row.Style = st.mark
		}
		rows = append(rows, row)
	}
	return rows
}
