package ui

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// tipDelay is how long the pointer rests on a widget before its tip shows:
// long enough not to flash while the pointer passes, as desktop tips do.
const tipDelay = 600 * time.Millisecond

// tipSelect is a Select that explains itself in a tip while the pointer
// rests on it (Fyne has no tooltips of its own). Main goroutine only.
type tipSelect struct {
	widget.Select
	tip   string
	popup *widget.PopUp
	timer *time.Timer
	// later runs fn on the main goroutine after d; tests replace it.
	later func(d time.Duration, fn func()) *time.Timer
}

func newTipSelect(options []string, tip string) *tipSelect {
	s := &tipSelect{tip: tip, later: func(d time.Duration, fn func()) *time.Timer {
		return time.AfterFunc(d, func() { fyne.Do(fn) })
	}}
	s.Options = options
	s.ExtendBaseWidget(s)
	return s
}

// MouseIn shows the tip after tipDelay.
func (s *tipSelect) MouseIn(ev *desktop.MouseEvent) {
	s.Select.MouseIn(ev)
	s.stopTimer()
	s.timer = s.later(tipDelay, s.showTip)
}

// MouseOut hides the tip.
func (s *tipSelect) MouseOut() {
	s.Select.MouseOut()
	s.stopTimer()
	if s.popup != nil {
		s.popup.Hide()
	}
}

// Tapped hides the tip before the options open.
func (s *tipSelect) Tapped(ev *fyne.PointEvent) {
	s.MouseOut()
	s.Select.Tapped(ev)
}

func (s *tipSelect) stopTimer() {
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
}

// showTip shows the tip just above the select.
func (s *tipSelect) showTip() {
	c := fyne.CurrentApp().Driver().CanvasForObject(s)
	if c == nil {
		return
	}
	label := widget.NewLabel(s.tip)
	s.popup = widget.NewPopUp(label, c)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(s)
	size := label.MinSize()
	s.popup.ShowAtPosition(fyne.NewPos(pos.X, max(0, pos.Y-size.Height-4)))
}

// tipLabel is a status bar label that cuts its text with an ellipsis and,
// when it is cut, shows the whole text in a tip while the pointer rests
// on it, or when it is clicked. Main goroutine only.
type tipLabel struct {
	widget.Label
	// onText runs after the text changed: the row lays its labels out
	// again for the new width.
	onText func()
	popup  *widget.PopUp
	timer  *time.Timer
	// later runs fn on the main goroutine after d; tests replace it.
	later func(d time.Duration, fn func()) *time.Timer
}

func newTipLabel(text string) *tipLabel {
	l := &tipLabel{later: func(d time.Duration, fn func()) *time.Timer {
		return time.AfterFunc(d, func() { fyne.Do(fn) })
	}}
	l.Text = text
	l.Truncation = fyne.TextTruncateEllipsis
	l.ExtendBaseWidget(l)
	return l
}

// SetText sets the text and has the row lay its labels out again.
func (l *tipLabel) SetText(text string) {
	if text == l.Text {
		return
	}
	l.Label.SetText(text)
	if l.onText != nil {
		l.onText()
	}
}

// cut reports whether the label shows less than its whole text.
func (l *tipLabel) cut() bool {
	return l.Visible() && naturalWidth(l) > l.Size().Width+0.5
}

// MouseIn shows the tip after tipDelay, if the text is cut then.
func (l *tipLabel) MouseIn(*desktop.MouseEvent) {
	l.stopTimer()
	l.timer = l.later(tipDelay, l.showTip)
}

// MouseMoved implements desktop.Hoverable.
func (l *tipLabel) MouseMoved(*desktop.MouseEvent) {}

// MouseOut hides the tip.
func (l *tipLabel) MouseOut() {
	l.stopTimer()
	l.hideTip()
}

// Tapped shows the whole text of a cut label, or hides the tip shown.
func (l *tipLabel) Tapped(*fyne.PointEvent) {
	l.stopTimer()
	if l.popup != nil && l.popup.Visible() {
		l.hideTip()
		return
	}
	l.showTip()
}

func (l *tipLabel) stopTimer() {
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
}

func (l *tipLabel) hideTip() {
	if l.popup != nil {
		l.popup.Hide()
		l.popup = nil
	}
}

// showTip shows the whole text just above the label when it is cut.
func (l *tipLabel) showTip() {
	c := fyne.CurrentApp().Driver().CanvasForObject(l)
	if c == nil || !l.cut() {
		return
	}
	l.hideTip()
	text := widget.NewLabel(l.Text)
	l.popup = widget.NewPopUp(text, c)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(l)
	size := l.popup.MinSize()
	x := min(pos.X, max(c.Size().Width-size.Width, 0)) // inside the window at the right edge
	l.popup.ShowAtPosition(fyne.NewPos(x, max(0, pos.Y-size.Height-4)))
}

// isTip reports whether o is the tip of one of labels or of sel: a tip
// is an overlay that does not own the keyboard.
func isTip(o fyne.CanvasObject, sel *tipSelect, labels ...*tipLabel) bool {
	if o == nil {
		return false
	}
	if sel != nil && sel.popup != nil && o == fyne.CanvasObject(sel.popup) {
		return true
	}
	for _, l := range labels {
		if l.popup != nil && o == fyne.CanvasObject(l.popup) {
			return true
		}
	}
	return false
}
