package editor

import (
	"sort"
	"strconv"
	"unicode/utf8"

	"fyne.io/fyne/v2/widget"

	"trestle/app/gitstatus"
	"trestle/app/textbuf"
)

// span is the part of the text a grid shows: rows first..first+count
// (0-based lines) and display columns col..col+cols after the gutter.
type span struct {
	first, count int
	col, cols    int
}

// rowStyles are the grid styles an editor draws rows with: the line
// numbers, the caret's line (a row style), and each syntax kind plain and
// selected. kinds[textbuf.Plain] is nil so that plain text takes the row's
// colours.
type rowStyles struct {
	gutter   widget.TextGridStyle
	git      [gitstatus.Deleted + 1]widget.TextGridStyle // the gutter's marks of lines changed against HEAD
	current  widget.TextGridStyle
	kinds    [textbuf.Number + 1]widget.TextGridStyle
	selected [textbuf.Number + 1]widget.TextGridStyle
	marked   [textbuf.Number + 1]widget.TextGridStyle // find's matches
	bracket  [textbuf.Number + 1]widget.TextGridStyle // the bracket at the caret and its partner
}

// rowSource is what the rows are built from: the text, its highlighting
// (nil: none), the tab width, the caret's line and the selection (ordered;
// empty for none).
type rowSource struct {
	buf       *textbuf.Buffer
	hl        *textbuf.Highlighter
	tabWidth  int
	caretLine int
	sel       textbuf.Range
	marks     []textbuf.Range // find's matches, in order; highlighted
	gitMarks  map[int]gitstatus.Change
	brackets  []textbuf.Pos // the bracket at the caret and its partner, or none
}

// gutterWidth is the width in cells of the line number column for n
// lines: the digits of n and two spaces.
func gutterWidth(n int) int {
	return len(strconv.Itoa(n)) + 2
}

// buildRows returns the grid rows for sp of src: each starts with the
// right-aligned line number, followed by the display cells col..col+cols
// of its line, coloured by kind and selection.
func buildRows(src rowSource, sp span, st rowStyles) []widget.TextGridRow {
	end := min(sp.first+sp.count, src.buf.LineCount())
	if sp.first >= end {
		return nil
	}
	rows := make([]widget.TextGridRow, 0, end-sp.first)
	gutter := gutterWidth(src.buf.LineCount())
	for i := sp.first; i < end; i++ {
		cells := make([]widget.TextGridCell, 0, gutter+sp.cols)
		cells = appendNumber(cells, i+1, gutter, st.gutter)
		if c, ok := src.gitMarks[i]; ok && st.git[c] != nil {
			cells[gutter-2] = widget.TextGridCell{Rune: gitMarkRune[c], Style: st.git[c]}
		}
		cells = appendLine(cells, src, i, sp, st)
		row := widget.TextGridRow{Cells: cells}
		if i == src.caretLine && src.sel.Empty() {
			row.Style = st.current
		}
		rows = append(rows, row)
	}
	return rows
}

// gitMarkRune draws a gutter mark: a bar beside an added or modified line,
// a low bar under a line after which lines were deleted.
var gitMarkRune = [gitstatus.Deleted + 1]rune{gitstatus.Added: '▌', gitstatus.Modified: '▌', gitstatus.Deleted: '▁'}

func appendNumber(cells []widget.TextGridCell, n, width int, style widget.TextGridStyle) []widget.TextGridCell {
	num := strconv.Itoa(n)
	for range width - 2 - len(num) {
		cells = append(cells, widget.TextGridCell{Rune: ' ', Style: style})
	}
	for _, r := range num + "  " {
		cells = append(cells, widget.TextGridCell{Rune: r, Style: style})
	}
	return cells
}

// appendLine appends the cells of line i in sp's columns.
func appendLine(cells []widget.TextGridCell, src rowSource, i int, sp span, st rowStyles) []widget.TextGridCell {
	line := src.buf.Line(i)
	var spans []textbuf.Span
	if src.hl != nil {
		spans = src.hl.Spans(i)
	}
	selFrom, selTo := selectedCols(src.sel, i)
	marks := lineMarks(src.marks, i)
	width := max(src.tabWidth, 1)
	cell, col, last := 0, 0, sp.col+sp.cols
	for _, r := range line {
		if cell >= last {
			return cells
		}
		for len(spans) > 0 && int(spans[0].End) <= col {
			spans = spans[1:]
		}
		kind := textbuf.Plain
		if len(spans) > 0 && int(spans[0].Start) <= col {
			kind = spans[0].Kind
		}
		style := st.kinds[kind]
		for len(marks) > 0 && marks[0].End.Line == i && marks[0].End.Col <= col {
			marks = marks[1:]
		}
		if len(marks) > 0 && !(marks[0].Start.Line == i && marks[0].Start.Col > col) && st.marked[kind] != nil {
			style = st.marked[kind]
		}
		if len(src.brackets) == 2 && (src.brackets[0] == textbuf.Pos{Line: i, Col: col} || src.brackets[1] == textbuf.Pos{Line: i, Col: col}) {
			style = st.bracket[kind]
		}
		if col >= selFrom && col < selTo {
			style = st.selected[kind]
		}
		next := cell + 1
		if r == '\t' {
			next = (cell/width + 1) * width
			r = ' '
		}
		for ; cell < next; cell++ {
			if cell >= sp.col && cell < last {
				cells = append(cells, widget.TextGridCell{Rune: r, Style: style})
			}
		}
		col++
	}
	if selTo > col && cell >= sp.col && cell < last { // the selected line break
		cells = append(cells, widget.TextGridCell{Rune: ' ', Style: st.selected[textbuf.Plain]})
	}
	return cells
}

// lineMarks returns the marks that touch line i, from the first one; marks
// are ordered, so a binary search finds it.
func lineMarks(marks []textbuf.Range, i int) []textbuf.Range {
	j := sort.Search(len(marks), func(k int) bool { return marks[k].End.Line >= i })
	marks = marks[j:]
	k := sort.Search(len(marks), func(k int) bool { return marks[k].Start.Line > i })
	return marks[:k]
}

// selectedCols returns the rune columns [from, to) of line that sel
// covers; to is past the line's end when the selection goes on to the next
// line.
func selectedCols(sel textbuf.Range, line int) (from, to int) {
	if sel.Empty() || line < sel.Start.Line || line > sel.End.Line {
		return 0, 0
	}
	from, to = 0, utf8.MaxRune
	if line == sel.Start.Line {
		from = sel.Start.Col
	}
	if line == sel.End.Line {
		to = sel.End.Col
	}
	return from, to
}
