package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// No dialog's text widens the window. A dialog's title and text often
// carry a file name, a path or an agent's words, and Fyne sizes a dialog
// to its widest line: the "Unsaved edits in …" dialog grew to 1200 px with
// a long file list, and a dialog wider than the window widens the window.
// So every dialog the window shows (dialogStack.show) has its text fitted
// once shown: a title wider than dialogTextWidth is cut with "…" (its
// text says the whole of it), and a label that would run wider wraps at
// that width.

// dialogTextWidth is the widest a dialog's text runs before it wraps, as
// Fyne's own text dialogs (dialog.NewInformation) wrap theirs; at most nine
// tenths of a narrower window.
const dialogTextWidth = 600

// textBound is the width dialog text wraps at on c.
func textBound(c fyne.Canvas) float32 {
	if w := c.Size().Width * 0.9; w > 0 && w < dialogTextWidth {
		return w
	}
	return dialogTextWidth
}

// fitDialogText fits the text of the dialog shown as top on c (a pop-up
// holding Fyne's dialog layout: icon, background, content, buttons,
// title) to textBound; other pop-ups are left as they are. Main goroutine
// only.
func fitDialogText(c fyne.Canvas, top fyne.CanvasObject) {
	pop, ok := top.(*widget.PopUp)
	if !ok {
		return
	}
	box, ok := pop.Content.(*fyne.Container)
	if !ok || len(box.Objects) != 5 {
		return
	}
	bound := textBound(c)
	if title, ok := box.Objects[4].(*widget.Label); ok {
		clipTitle(title, bound)
	}
	box.Objects[2] = wrapWide(box.Objects[2], bound)
	pop.Refresh() // the pop-up sizes itself to its content again
}

// clipTitle cuts l's text with "…" to the longest start that fits in
// width.
func clipTitle(l *widget.Label, width float32) {
	fits := func(s string) bool {
		return widget.NewLabelWithStyle(s, l.Alignment, l.TextStyle).MinSize().Width <= width
	}
	if fits(l.Text) {
		return
	}
	runes := []rune(l.Text)
	lo, hi := 0, len(runes) // runes[:lo]+"…" fits; runes[:hi+1]+"…" does not
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(string(runes[:mid]) + "…") {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	l.SetText(strings.TrimRight(string(runes[:lo]), " ,") + "…")
}

// wrapWide makes each label in o that would run wider than width wrap at
// width, returning what stands for o. It looks through containers,
// vertical scrolls and splits; a sideways scroll never widens its dialog
// and a widget's own parts are its own.
func wrapWide(o fyne.CanvasObject, width float32) fyne.CanvasObject {
	switch x := o.(type) {
	case *widget.Label:
		if x.Wrapping == fyne.TextWrapOff && x.Truncation == fyne.TextTruncateOff && x.MinSize().Width > width {
			x.Wrapping = fyne.TextWrapWord
			return container.New(wrapAt{width}, x)
		}
	case *fyne.Container:
		for i, c := range x.Objects {
			x.Objects[i] = wrapWide(c, width)
		}
	case *container.Scroll:
		if x.Direction == container.ScrollVerticalOnly || x.Direction == container.ScrollNone {
			x.Content = wrapWide(x.Content, width)
		}
	case *container.Split:
		x.Leading = wrapWide(x.Leading, width)
		x.Trailing = wrapWide(x.Trailing, width)
	}
	return o
}

// wrapAt lays out one wrapping label: at least width wide, as tall as its
// text wraps at that width (a wrapping label alone asks for the width of
// one letter, and the dialog would shrink to its buttons).
type wrapAt struct{ width float32 }

// Layout implements fyne.Layout.
func (w wrapAt) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}

// MinSize implements fyne.Layout: the label's text wrapped at w.width, by
// a label of its own so the label shown is never resized to measure.
func (w wrapAt) MinSize(objects []fyne.CanvasObject) fyne.Size {
	min := fyne.NewSize(w.width, 0)
	for _, o := range objects {
		l, ok := o.(*widget.Label)
		if !ok {
			min = min.Max(o.MinSize())
			continue
		}
		probe := &widget.Label{Text: l.Text, TextStyle: l.TextStyle, Wrapping: l.Wrapping, SizeName: l.SizeName}
		probe.MinSize() // a label wraps its rows on Resize only once it has its renderer
		probe.Resize(fyne.NewSize(w.width, 0))
		min = min.Max(fyne.NewSize(w.width, probe.MinSize().Height))
	}
	return min
}
