package ui

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The status bar's row: the state labels at the left, the message in the
// middle, the caret and the bell at the right. The caret and the bell keep
// their widths; the labels get theirs next, and the message what is left
// but messageMin, which it always keeps (so that the row is laid out the
// same with or without a message, and a message shows enough to be
// clicked open whole). When the labels need more, they cut their text
// with an ellipsis, in the order of the left row's shrinkRow, and show it
// whole in a tip. The row never asks for more width than the right-hand
// side and a little: a long text (an agent's client name) never widens
// the window. (It used to keep 30% of the row for the message, which cut
// every label, the evaluator's state too, at 1100 px.)

// messageMin is the least width the message keeps: a dozen letters.
const messageMin = 110

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
	leftW := max(min(left.MinSize().Width, avail-messageMin), 0)
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
// gives anything, so what matters least goes first; then drop's stubs go;
// then labels not in order give way; if that is not enough, every label
// shrinks in proportion. What is not a cut label keeps its width.
type shrinkRow struct {
	order []fyne.CanvasObject
	// drop are labels of order that, when every label is a stub and the
	// row is still too wide, give their stub's room too (and show nothing),
	// in this order, before the rest shrink below their stubs.
	drop []fyne.CanvasObject
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
	toStub := func(o fyne.CanvasObject) {
		give := min(max(excess, 0), max(widths[o]-stub, 0))
		widths[o] -= give
		excess -= give
	}
	for _, o := range flexible { // those in order, each down to its stub
		if slices.Contains(r.order, o) {
			toStub(o)
		}
	}
	for _, o := range r.drop { // then what matters least gives its stub
		if _, shown := widths[o]; shown && excess > 0 {
			excess -= widths[o]
			widths[o] = 0
		}
	}
	for _, o := range flexible { // then the rest
		if !slices.Contains(r.order, o) {
			toStub(o)
		}
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
		if w == 0 { // dropped: out of sight, not a stray ellipsis
			o.Move(fyne.NewPos(-size.Width-1000, 0))
			o.Resize(fyne.NewSize(0, size.Height))
			continue
		}
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w
	}
}
