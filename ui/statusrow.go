package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The status bar's row: the state labels at the left, the message in the
// middle, the caret and the bell at the right. At 1024 px the labels'
// natural widths left the message a few pixels ("T…"), and a long text in
// one of them (an agent's client name) widened the window. So the labels
// cut their text with an ellipsis (the message shows whole when clicked)
// and the row gives them their natural widths only while the message
// keeps messageShare of the row; the row never asks for more width than
// the right-hand side and a little.

// messageShare is the part of the status row the message keeps when the
// state labels would take more.
const messageShare = 0.3

// statusRow lays out [left, message, right] in one row. Its MinSize is
// small: the labels shrink rather than widen the window.
type statusRow struct{}

func (statusRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(objs[2].MinSize().Width+160, h)
}

func (statusRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	left, message, right := objs[0], objs[1], objs[2]
	rightW := right.MinSize().Width
	avail := max(size.Width-rightW, 0)
	leftW := min(left.MinSize().Width, avail*(1-messageShare)) // the same with or without a message: no re-layout as it comes and goes
	left.Move(fyne.NewPos(0, 0))
	left.Resize(fyne.NewSize(leftW, size.Height))
	message.Move(fyne.NewPos(leftW, 0))
	message.Resize(fyne.NewSize(max(avail-leftW, 0), size.Height))
	right.Move(fyne.NewPos(size.Width-rightW, 0))
	right.Resize(fyne.NewSize(rightW, size.Height))
}

// shrinkRow is a horizontal row whose MinSize is its items' natural
// widths (a cut label's whole text) and which, given less, shrinks the
// labels that cut their text, in proportion, and keeps the rest.
type shrinkRow struct{}

// naturalWidth is o's width with its whole text.
func naturalWidth(o fyne.CanvasObject) float32 {
	if l, ok := o.(*widget.Label); ok && l.Truncation != fyne.TextTruncateOff {
		return fyne.MeasureText(l.Text, theme.TextSize(), l.TextStyle).Width + 2*theme.InnerPadding()
	}
	return o.MinSize().Width
}

func shrinks(o fyne.CanvasObject) bool {
	l, ok := o.(*widget.Label)
	return ok && l.Truncation != fyne.TextTruncateOff
}

func (shrinkRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var w, h float32
	for _, o := range objs {
		if o.Visible() {
			w += naturalWidth(o)
			h = max(h, o.MinSize().Height)
		}
	}
	return fyne.NewSize(w, h)
}

func (shrinkRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	var fixed, flexible float32
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		if shrinks(o) {
			flexible += naturalWidth(o)
		} else {
			fixed += naturalWidth(o)
		}
	}
	scale := float32(1)
	if flexible > 0 && fixed+flexible > size.Width {
		scale = max(size.Width-fixed, 0) / flexible
	}
	x := float32(0)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		w := naturalWidth(o)
		if shrinks(o) {
			w *= scale
		}
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w
	}
}
