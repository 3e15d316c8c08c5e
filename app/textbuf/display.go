package textbuf

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultTabWidth is the tab stop distance in display cells when none is set.
const DefaultTabWidth = 4

// ExpandTabs appends the runes of line to dst with each tab replaced by
// spaces up to the next multiple of width (DefaultTabWidth when width < 1)
// and returns the result.
func ExpandTabs(dst []rune, line string, width int) []rune {
	width = tabWidth(width)
	start := len(dst)
	for _, r := range line {
		if r != '\t' {
			dst = append(dst, r)
			continue
		}
		for stop := ((len(dst)-start)/width + 1) * width; len(dst)-start < stop; {
			dst = append(dst, ' ')
		}
	}
	return dst
}

// Cells returns the number of display cells line takes with tabs
// expanded to width.
func Cells(line string, width int) int {
	if !strings.ContainsRune(line, '\t') {
		return utf8.RuneCountInString(line)
	}
	return CellOf(line, utf8.RuneCountInString(line), width)
}

// CellOf returns the display cell where rune column col of line starts,
// with tabs expanded to width.
func CellOf(line string, col, width int) int {
	width = tabWidth(width)
	cell := 0
	for _, r := range line {
		if col == 0 {
			break
		}
		col--
		if r == '\t' {
			cell = (cell/width + 1) * width
		} else {
			cell++
		}
	}
	return cell + max(col, 0)
}

// ColAt returns the rune column of line nearest to display cell cell: a
// click on the right half of a tab or a rune places the caret after it.
// Past the end of line it returns the length of line.
func ColAt(line string, cell, width int) int {
	width = tabWidth(width)
	col, at := 0, 0
	for _, r := range line {
		next := at + 1
		if r == '\t' {
			next = (at/width + 1) * width
		}
		if cell < next {
			if 2*(cell-at) >= next-at && next-at > 1 {
				return col + 1
			}
			return col
		}
		at, col = next, col+1
	}
	return col
}

func tabWidth(width int) int {
	if width < 1 {
		return DefaultTabWidth
	}
	return width
}

// WordAt returns the rune columns [start, end) of the word of line at
// column col, for a double-click: a run of letters, digits and
// underscores, or a run of spaces and tabs, or else the one rune at col.
// Past the end of line it selects the last word of the line, if any.
func WordAt(line string, col int) (start, end int) {
	runes := []rune(line)
	if len(runes) == 0 {
		return 0, 0
	}
	col = min(max(col, 0), len(runes)-1)
	class := runeClass(runes[col])
	if class == classOther {
		return col, col + 1
	}
	start, end = col, col+1
	for start > 0 && runeClass(runes[start-1]) == class {
		start--
	}
	for end < len(runes) && runeClass(runes[end]) == class {
		end++
	}
	return start, end
}

const (
	classOther = iota
	classWord
	classSpace
)

func runeClass(r rune) int {
	switch {
	case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
		return classWord
	case r == ' ' || r == '\t':
		return classSpace
	}
	return classOther
}

// LeadingSpace returns the spaces and tabs line starts with.
func LeadingSpace(line string) string {
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))]
}
