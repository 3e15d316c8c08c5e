package review

import (
	"fmt"
	"image/color"
	"path"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
	"trestle/app/textbuf"
)

// diffTabWidth is the tab stop of diff text, as gofmt'd code is read.
const diffTabWidth = 4

// diffRow is one line of a rendered diff. In a unified diff, left holds the
// whole line; side by side, left is the old line and right the new one (a
// nil side is a gap). gutter is how many cells of line numbers start each
// side: a wrapped line continues under its text, not under its numbers.
type diffRow struct {
	left, right []widget.TextGridCell
	gutter      int
	side        bool
	strike      bool // left is a removed line: its text is struck through
}

// strike is a run of cells struck through on one wrapped row, [from, to):
// the text of a removed line, without its numbers or indentation.
type strike struct{ row, from, to int }

// palette is the colours of a diff, read from the theme: the tints of
// added and removed lines, stronger tints for the words that changed in
// them, and the syntax colours of Go.
type palette struct {
	added, removed, addedWord, removedWord color.Color
	dim, fg                                color.Color
	syntax                                 [textbuf.Number + 1]color.Color
	cache                                  map[styleKey]widget.TextGridStyle
}

type styleKey struct {
	bg   int // 0 none, 1 added, 2 removed, 3 added word, 4 removed word
	kind textbuf.Kind
	dim  bool
}

// newPalette reads the colours from the current theme. Main goroutine only.
func newPalette() *palette {
	tint := func(name fyne.ThemeColorName, a uint8) color.Color {
		r, g, b, _ := theme.Color(name).RGBA()
		return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
	}
	p := &palette{
		added: tint(theme.ColorNameSuccess, 0x30), removed: tint(theme.ColorNameError, 0x30),
		addedWord: tint(theme.ColorNameSuccess, 0x80), removedWord: tint(theme.ColorNameError, 0x80),
		dim:   theme.Color(theme.ColorNamePlaceHolder),
		fg:    theme.Color(theme.ColorNameForeground),
		cache: map[styleKey]widget.TextGridStyle{},
	}
	p.syntax[textbuf.Keyword] = theme.Color(theme.ColorNamePrimary)
	p.syntax[textbuf.String] = theme.Color(theme.ColorNameSuccess)
	p.syntax[textbuf.Comment] = theme.Color(theme.ColorNamePlaceHolder)
	p.syntax[textbuf.Number] = theme.Color(theme.ColorNameWarning)
	return p
}

// style is the cell style of k, shared between cells.
func (p *palette) style(k styleKey) widget.TextGridStyle {
	if s, ok := p.cache[k]; ok {
		return s
	}
	s := &widget.CustomTextGridStyle{}
	s.BGColor = [...]color.Color{nil, p.added, p.removed, p.addedWord, p.removedWord}[k.bg]
	switch {
	case k.dim:
		s.FGColor = p.dim
	case k.bg >= 3: // a changed word: the text colour reads on its strong tint
		s.FGColor = p.fg
	case p.syntax[k.kind] != nil:
		s.FGColor = p.syntax[k.kind]
	}
	var out widget.TextGridStyle = s
	if s.BGColor == nil && s.FGColor == nil {
		out = nil
	}
	p.cache[k] = out
	return out
}

// fileSyntax highlights the base and new text of a Go file, so that a diff
// line is coloured as it reads in its file (a line inside a block comment
// is a comment). Files that are not Go get no colours.
type fileSyntax struct {
	base, new *textbuf.Highlighter
}

func newFileSyntax(fc changeset.FileChange) fileSyntax {
	if path.Ext(fc.Path) != ".go" {
		return fileSyntax{}
	}
	hl := func(text string) *textbuf.Highlighter {
		lines := strings.Split(text, "\n")
		return textbuf.NewHighlighter(len(lines), func(i int) string { return lines[i] })
	}
	return fileSyntax{base: hl(fc.Base), new: hl(fc.New)}
}

// spans are the syntax spans of l: from the new text where it has a new
// line number, else from the base.
func (s fileSyntax) spans(l changeset.DiffLine) []textbuf.Span {
	switch {
	case l.New > 0 && s.new != nil:
		return s.new.Spans(l.New - 1)
	case l.Old > 0 && s.base != nil:
		return s.base.Spans(l.Old - 1)
	}
	return nil
}

// lineCells renders text as cells: tabs expanded, control characters
// marked (changeset.MarkControls), each cell coloured by its syntax kind
// and tinted as bg, the runs in words tinted as word.
func lineCells(p *palette, text string, spans []textbuf.Span, words []span, bg, word int) []widget.TextGridCell {
	cells := make([]widget.TextGridCell, 0, len(text)+8)
	col := 0
	for i, r := range []rune(text) {
		k := styleKey{bg: bg}
		for _, s := range spans {
			if int(s.Start) <= i && i < int(s.End) {
				k.kind = s.Kind
			}
		}
		for _, w := range words {
			if w.start <= i && i < w.end {
				k.bg = word
			}
		}
		st := p.style(k)
		shown := []rune(changeset.MarkControls(string(r)))
		if r == '\t' {
			shown = []rune(strings.Repeat(" ", diffTabWidth-col%diffTabWidth))
		}
		for _, s := range shown {
			cells = append(cells, widget.TextGridCell{Rune: s, Style: st})
			col++
		}
	}
	return cells
}

// textCells is plain text as cells of style st.
func textCells(s string, st widget.TextGridStyle) []widget.TextGridCell {
	cells := make([]widget.TextGridCell, 0, len(s))
	for _, r := range s {
		cells = append(cells, widget.TextGridCell{Rune: r, Style: st})
	}
	return cells
}

// padCells pads cells with spaces of style st to n.
func padCells(cells []widget.TextGridCell, n int, st widget.TextGridStyle) []widget.TextGridCell {
	for len(cells) < n {
		cells = append(cells, widget.TextGridCell{Rune: ' ', Style: st})
	}
	return cells
}

// lineWords pairs the removed and added lines of each change in h (each
// run of removals with the additions after it, line by line) and returns
// the word runs that changed in each, by its index in h.Lines.
func lineWords(h changeset.Hunk) map[int][]span {
	out := map[int][]span{}
	for i := 0; i < len(h.Lines); {
		if h.Lines[i].Kind == changeset.Context {
			i++
			continue
		}
		var dels, adds []int
		for ; i < len(h.Lines) && h.Lines[i].Kind == changeset.Removed; i++ {
			dels = append(dels, i)
		}
		for ; i < len(h.Lines) && h.Lines[i].Kind == changeset.Added; i++ {
			adds = append(adds, i)
		}
		for j := range min(len(dels), len(adds)) {
			o, n := wordDiff(h.Lines[dels[j]].Text, h.Lines[adds[j]].Text)
			out[dels[j]], out[adds[j]] = o, n
		}
	}
	return out
}

// kindBG is the tint of a line kind and of its changed words.
func kindBG(k changeset.LineKind) (bg, word int) {
	switch k {
	case changeset.Added:
		return 1, 3
	case changeset.Removed:
		return 2, 4
	}
	return 0, 0
}

// unifiedRows renders h as a unified diff: old and new line numbers, the
// marker, the text.
func unifiedRows(p *palette, syn fileSyntax, h changeset.Hunk) []diffRow {
	words := lineWords(h)
	rows := make([]diffRow, 0, len(h.Lines))
	for i, l := range h.Lines {
		bg, word := kindBG(l.Kind)
		gutter := fmt.Sprintf("%5s %5s %c", lineNo(l.Old), lineNo(l.New), rune(l.Kind))
		cells := textCells(gutter, p.style(styleKey{bg: bg, dim: true}))
		cells = append(cells, lineCells(p, l.Text, syn.spans(l), words[i], bg, word)...)
		rows = append(rows, diffRow{left: cells, gutter: len(gutter), strike: l.Kind == changeset.Removed})
		if l.NoEOL {
			rows = append(rows, noteRow(p, `\ No newline at end of file`))
		}
	}
	return rows
}

// sideRows renders h side by side: context on both sides, each run of
// removals beside the additions that follow it.
func sideRows(p *palette, syn fileSyntax, h changeset.Hunk) []diffRow {
	words := lineWords(h)
	side := func(i int) []widget.TextGridCell {
		l := h.Lines[i]
		bg, word := kindBG(l.Kind)
		n := l.New
		if l.Kind == changeset.Removed {
			n = l.Old
		}
		cells := textCells(fmt.Sprintf("%5d ", n), p.style(styleKey{bg: bg, dim: true}))
		return append(cells, lineCells(p, l.Text, syn.spans(l), words[i], bg, word)...)
	}
	var rows []diffRow
	for i := 0; i < len(h.Lines); {
		if h.Lines[i].Kind == changeset.Context {
			c := side(i)
			rows = append(rows, diffRow{left: c, right: c, gutter: 6, side: true})
			i++
			continue
		}
		var dels, adds []int
		for ; i < len(h.Lines) && h.Lines[i].Kind == changeset.Removed; i++ {
			dels = append(dels, i)
		}
		for ; i < len(h.Lines) && h.Lines[i].Kind == changeset.Added; i++ {
			adds = append(adds, i)
		}
		for j := range max(len(dels), len(adds)) {
			r := diffRow{gutter: 6, side: true}
			if j < len(dels) {
				r.left, r.strike = side(dels[j]), true
			}
			if j < len(adds) {
				r.right = side(adds[j])
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// noteRow is a dimmed line of text across the diff.
func noteRow(p *palette, text string) diffRow {
	return diffRow{left: textCells(text, p.style(styleKey{dim: true}))}
}

func lineNo(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprint(n)
}

// wrapRows lays rows out in cols cells: a long line continues on the next
// row, indented past its line numbers; side by side, each side takes half
// the width less a separator. Nothing is cut. It also returns where the
// text of removed lines is struck through. Plain logic, any goroutine.
func wrapRows(rows []diffRow, cols int) ([]widget.TextGridRow, []strike) {
	cols = max(cols, 24)
	var out []widget.TextGridRow
	var struck []strike
	mark := func(r diffRow, part int, cells []widget.TextGridCell) {
		skip := 0
		if part == 0 {
			skip = r.gutter
		}
		if from, to := textRun(cells, skip); r.strike && from < to {
			struck = append(struck, strike{row: len(out), from: from, to: to})
		}
	}
	for _, r := range rows {
		if !r.side {
			for i, part := range wrapCells(r.left, cols, r.gutter) {
				mark(r, i, part)
				out = append(out, widget.TextGridRow{Cells: part})
			}
			continue
		}
		half := (cols - 3) / 2
		left, right := wrapCells(r.left, half, r.gutter), wrapCells(r.right, half, r.gutter)
		for i := range max(len(left), len(right)) {
			var cells []widget.TextGridCell
			if i < len(left) {
				mark(r, i, left[i])
				cells = append(cells, left[i]...)
			}
			cells = padCells(cells, half, sideStyle(r.left))
			cells = append(cells, widget.TextGridCell{Rune: ' '}, widget.TextGridCell{Rune: '│'}, widget.TextGridCell{Rune: ' '})
			if i < len(right) {
				cells = append(cells, padCells(right[i], half, sideStyle(r.right))...)
			}
			out = append(out, widget.TextGridRow{Cells: cells})
		}
	}
	return out, struck
}

// textRun is where the text of cells starts and ends past skip cells,
// leaving out the spaces around it; from == to when there is none.
func textRun(cells []widget.TextGridCell, skip int) (from, to int) {
	for i := skip; i < len(cells); i++ {
		if cells[i].Rune != ' ' {
			if to == 0 {
				from = i
			}
			to = i + 1
		}
	}
	return from, to
}

// sideStyle is the style a side's padding continues with: its tint.
func sideStyle(cells []widget.TextGridCell) widget.TextGridStyle {
	if len(cells) == 0 || cells[0].Style == nil {
		return nil
	}
	return &widget.CustomTextGridStyle{BGColor: cells[0].Style.BackgroundColor()}
}

// wrapCells splits cells into rows of at most width, continuation rows
// indented by indent blank cells (less when width leaves no room).
func wrapCells(cells []widget.TextGridCell, width, indent int) [][]widget.TextGridCell {
	if len(cells) <= width {
		return [][]widget.TextGridCell{cells}
	}
	if indent > width/2 {
		indent = 0
	}
	out := [][]widget.TextGridCell{cells[:width]}
	st := sideStyle(cells)
	for rest := cells[width:]; len(rest) > 0; {
		n := min(len(rest), width-indent)
		row := padCells(nil, indent, st)
		out = append(out, append(row, rest[:n]...))
		rest = rest[n:]
	}
	return out
}

// dimRows is rows without tints or colours, in the dimmed text colour: a
// rejected hunk.
func dimRows(p *palette, rows []diffRow) []diffRow {
	st := p.style(styleKey{dim: true})
	dim := func(cells []widget.TextGridCell) []widget.TextGridCell {
		out := make([]widget.TextGridCell, len(cells))
		for i, c := range cells {
			out[i] = widget.TextGridCell{Rune: c.Rune, Style: st}
		}
		return out
	}
	out := make([]diffRow, len(rows))
	for i, r := range rows {
		out[i] = diffRow{left: dim(r.left), right: dim(r.right), gutter: r.gutter, side: r.side}
		if r.right == nil {
			out[i].right = nil
		}
	}
	return out
}
