package ui

import (
	"slices"

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
// widths (a cut label's whole text) and which, given less, cuts the labels
// in order: the first of order down to a stub ("M…") before the next
// gives anything, so what matters least goes first; if that is not
// enough, every label shrinks in proportion. Labels not in order give
// way after those in it; the rest keep their widths.
type shrinkRow struct {
	order []fyne.CanvasObject
}

// cutLabel is the label o shows its text in when it cuts it.
func cutLabel(o fyne.CanvasObject) (*widget.Label, bool) {
	var l *widget.Label
	switch o := o.(type) {
	case *widget.Label:
		l = o
	case *tipLabel:
		l = &o.Label
	default:
		return nil, false
	}
	return l, l.Truncation != fyne.TextTruncateOff
}

// naturalWidth is o's width with its whole text.
func naturalWidth(o fyne.CanvasObject) float32 {
	if l, ok := cutLabel(o); ok {
		return fyne.MeasureText(l.Text, theme.TextSize(), l.TextStyle).Width + 2*theme.InnerPadding() + 1 // +1: rounding never cuts a whole text
	}
	return o.MinSize().Width
}

func shrinks(o fyne.CanvasObject) bool {
	_, ok := cutLabel(o)
	return ok
}

// stubWidth is the least a cut label keeps: two letters and the ellipsis.
func stubWidth() float32 {
	return fyne.MeasureText("Mm…", theme.TextSize(), fyne.TextStyle{}).Width + 2*theme.InnerPadding() + 1
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

// widths are the widths Layout gives objs in size.
func (r shrinkRow) widths(objs []fyne.CanvasObject, size fyne.Size) map[fyne.CanvasObject]float32 {
	widths := map[fyne.CanvasObject]float32{}
	var total float32
	var flexible []fyne.CanvasObject
	for _, o := range objs {
		if o.Visible() {
			widths[o] = naturalWidth(o)
			total += widths[o]
		}
	}
	for _, o := range append(append([]fyne.CanvasObject(nil), r.order...), objs...) {
		if _, shown := widths[o]; shown && shrinks(o) && !slices.Contains(flexible, o) {
			flexible = append(flexible, o)
		}
	}
	excess := total - size.Width
	stub := stubWidth()
	for _, o := range flexible { // in order, each down to its stub
		if excess <= 0 {
			break
		}
		give := min(excess, max(widths[o]-stub, 0))
		widths[o] -= give
		excess -= give
	}
	if excess > 0 { // stubs everywhere and still too wide: all shrink alike
		var left float32
		for _, o := range flexible {
			left += widths[o]
		}
		if left > 0 {
			scale := max(left-excess, 0) / left
			for _, o := range flexible {
				widths[o] *= scale
			}
		}
	}
	return widths
}

func (r shrinkRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	widths := r.widths(objs, size)
	x := float32(0)
	for _, o := range objs {
		w, shown := widths[o]
		if !shown {
			continue
		}
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w
	}
}
