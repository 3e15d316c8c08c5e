package editor

import (
	"image/color"
	"math"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/textbuf"
)

// TestUndoOfALongLineScrollsBackToColumnZero: typing a long line scrolls
// right; undoing it puts the caret at column 0, and the view follows.
func TestUndoOfALongLineScrollsBackToColumnZero(t *testing.T) {
	e := newTestEditor(t, "x\n", false)
	e.moveTo(textbuf.Pos{Line: 1}, false)
	test.Type(e.page, strings.Repeat("long ", 60))
	if e.scroll.Offset.X == 0 {
		t.Fatal("typing a 300-column line did not scroll right")
	}
	e.Undo()
	if e.caret.Col != 0 || e.scroll.Offset.X != 0 {
		t.Errorf("after undo: caret %v, horizontal offset %v; want column 0 in view (offset 0)", e.caret, e.scroll.Offset.X)
	}
}

// TestWheelScrollsThreeLinesANotch: one notch of a mouse wheel (Fyne's 25
// px on Linux and Windows) moves the view three lines.
func TestWheelScrollsThreeLinesANotch(t *testing.T) {
	e := newTestEditor(t, strings.Repeat("line\n", 500), false)
	cell := e.look.cell.Height
	c := fyne.CurrentApp().Driver().CanvasForObject(e)
	mid := fyne.NewPos(300, 200)
	test.Scroll(c, mid, 0, -wheelNotch) // as the driver sends it: to the Scrollable under the pointer
	if got := e.scroll.Offset.Y / cell; got < 2.99 || got > 3.01 {
		t.Errorf("one notch down scrolled %.2f lines, want 3", got)
	}
	test.Scroll(c, mid, 0, wheelNotch)
	if e.scroll.Offset.Y != 0 {
		t.Errorf("one notch up left the view at %v, want the top", e.scroll.Offset.Y)
	}
}

// TestLineNumbersReadInBothThemes: the gutter's numbers keep a contrast of
// at least 3:1 (WCAG's large-text floor) against the page, dark or light.
func TestLineNumbersReadInBothThemes(t *testing.T) {
	for _, v := range []fyne.ThemeVariant{theme.VariantDark, theme.VariantLight} {
		th := theme.DefaultTheme()
		fg := nrgba(th.Color(theme.ColorNameForeground, v))
		bg := nrgba(th.Color(theme.ColorNameBackground, v))
		var c [9]color.NRGBA
		c[7], c[8] = fg, bg
		gutter := nrgba(newRowStyles(c, false).gutter.(*widget.CustomTextGridStyle).FGColor)
		if r := contrast(gutter, bg); r < 3 {
			t.Errorf("variant %d: line numbers %v on %v have contrast %.2f, want >= 3", v, gutter, bg, r)
		}
	}
}

func contrast(a, b color.NRGBA) float64 {
	lum := func(c color.NRGBA) float64 {
		ch := func(v uint8) float64 {
			s := float64(v) / 255
			if s <= 0.03928 {
				return s / 12.92
			}
			return math.Pow((s+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// TestFindSeedsTheWordSelected: Ctrl+F with the caret in a word seeds the
// bar with it, selected, so typing replaces it (it once gave
// "newBackendreturn").
func TestFindSeedsTheWordSelected(t *testing.T) {
	e := newTestEditor(t, "b := newBackend()\nreturn b\n", false)
	e.moveTo(textbuf.Pos{Col: 8}, false)
	ctrl(e, fyne.KeyF, false)
	if e.bars.query.Text != "newBackend" {
		t.Fatalf("seeded %q, want newBackend", e.bars.query.Text)
	}
	test.Type(e.bars.query, "return")
	if e.bars.query.Text != "return" {
		t.Errorf("typing after the seed gave %q, want return", e.bars.query.Text)
	}
}

// TestFindHighlightsEveryMatchAndReplaces: every match is drawn marked,
// Replace replaces the selected one and moves on, All replaces the rest as
// one undo step.
func TestFindHighlightsEveryMatchAndReplaces(t *testing.T) {
	e := newTestEditor(t, "foo x foo\nfoo\n", false)
	ctrl(e, fyne.KeyF, false)
	test.Type(e.bars.query, "foo")
	rows := buildRows(e.rowSource(), span{first: 0, count: 3, col: 0, cols: 40}, e.look.styles)
	gutter := gutterWidth(e.buf.LineCount())
	marked := func(row, col int) bool {
		c := rows[row].Cells[gutter+col]
		return c.Style == e.look.styles.marked[textbuf.Plain] || c.Style == e.look.styles.selected[textbuf.Plain]
	}
	for _, at := range [][2]int{{0, 0}, {0, 8}, {1, 1}} {
		if !marked(at[0], at[1]) {
			t.Errorf("line %d col %d is not drawn as a match", at[0]+1, at[1]+1)
		}
	}
	if marked(0, 4) {
		t.Error("the x between matches is drawn as a match")
	}
	test.Type(e.bars.replace, "bar")
	e.bars.replaceOne()
	if got := e.buf.Text(); got != "bar x foo\nfoo\n" {
		t.Fatalf("Replace gave %q", got)
	}
	e.bars.replaceAll()
	if got := e.buf.Text(); got != "bar x bar\nbar\n" {
		t.Fatalf("All gave %q", got)
	}
	e.Undo()
	if got := e.buf.Text(); got != "bar x foo\nfoo\n" {
		t.Errorf("one undo after All gave %q, want the text before All", got)
	}
	e.bars.hide()
	if len(e.rowSource().marks) != 0 {
		t.Error("matches stay marked after the bar is hidden")
	}
}

// TestBracketAtTheCaretAndItsPartnerAreMarked: with the caret at a brace,
// it and its partner are drawn marked; a brace inside a string is no
// partner.
func TestBracketAtTheCaretAndItsPartnerAreMarked(t *testing.T) {
	e := newTestEditor(t, "func f() {\n\ts := \"}\"\n}\n", true)
	e.moveTo(textbuf.Pos{Col: 9}, false)
	rows := buildRows(e.rowSource(), span{first: 0, count: 3, cols: 40}, e.look.styles)
	g := gutterWidth(e.buf.LineCount())
	isBracket := func(row, cell int) bool {
		st := rows[row].Cells[g+cell].Style
		for _, b := range e.look.styles.bracket {
			if b != nil && st == b {
				return true
			}
		}
		return false
	}
	if !isBracket(0, 9) || !isBracket(2, 0) {
		t.Errorf("the brace at 1:10 and its partner at 3:1 are not both marked")
	}
	if isBracket(1, 10) { // the "}" in the string, after a tab of 4 cells: cell 4+6
		t.Error("the brace in the string is marked")
	}
	e.moveTo(textbuf.Pos{Col: 2}, false)
	if got := e.rowSource().brackets; got != nil {
		t.Errorf("the caret in a word marks brackets %v", got)
	}
}

// TestScrolledEditorKeepsClicksInsideItsView: scrolled to the middle of a
// long file, the editor takes no click above or below its view (its page,
// as large as the text, once took clicks meant for the tab headers above
// it and hovers meant for the pane below).
func TestScrolledEditorKeepsClicksInsideItsView(t *testing.T) {
	test.NewTempApp(t)
	buf := textbuf.New(strings.Repeat("line\n", 2000))
	e := New(buf, nil)
	var tappedAbove, tappedBelow bool
	above := widget.NewButton("above", func() { tappedAbove = true })
	below := widget.NewButton("below", func() { tappedBelow = true })
	// The editor last, drawn over the rest, as DocTabs draws a tab's content after its headers.
	w := test.NewTempWindow(t, container.New(layout.NewBorderLayout(above, below, nil, nil), above, below, e))
	w.Resize(fyne.NewSize(600, 400))
	c := w.Canvas()
	for range 100 {
		test.Scroll(c, fyne.NewPos(300, 200), 0, -wheelNotch)
	}
	if e.scroll.Offset.Y < 1000 {
		t.Fatalf("the wheel scrolled the view only to %v", e.scroll.Offset.Y)
	}
	caret := e.Caret()
	test.TapCanvas(c, fyne.NewPos(300, above.Size().Height/2))
	test.TapCanvas(c, fyne.NewPos(300, 400-below.Size().Height/2))
	if !tappedAbove || !tappedBelow {
		t.Errorf("taps on the buttons above (%v) and below (%v) the scrolled editor did not reach them", tappedAbove, tappedBelow)
	}
	if e.Caret() != caret {
		t.Errorf("a tap outside the editor moved its caret from %v to %v", caret, e.Caret())
	}
}
