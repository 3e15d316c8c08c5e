package ui

import (
	"image/color"
	"math"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
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
	e.undo()
	if e.caret.Col != 0 || e.scroll.Offset.X != 0 {
		t.Errorf("after undo: caret %v, horizontal offset %v; want column 0 in view (offset 0)", e.caret, e.scroll.Offset.X)
	}
}

// TestWheelScrollsThreeLinesANotch: one notch of a mouse wheel (Fyne's 25
// px on Linux and Windows) moves the view three lines.
func TestWheelScrollsThreeLinesANotch(t *testing.T) {
	e := newTestEditor(t, strings.Repeat("line\n", 500), false)
	cell := e.look.cell.Height
	e.page.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -wheelNotch)})
	if got := e.scroll.Offset.Y / cell; got < 2.99 || got > 3.01 {
		t.Errorf("one notch down scrolled %.2f lines, want 3", got)
	}
	e.page.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, wheelNotch)})
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
