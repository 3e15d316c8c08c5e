package ui

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tipDelay is how long the pointer rests on a widget before its tip shows:
// long enough not to flash while the pointer passes, as desktop tips do.
const tipDelay = 600 * time.Millisecond

// Tips show in a layer over the window's content (tipLayer), not as
// pop-ups: a pop-up is an overlay, and while one shows the keys typed go
// to what is focused in it (nothing), not to the editor, so resting the
// pointer on the status bar would eat what the person types.

// showTip places a tip with text just above anchor in layer and returns it.
func showTip(layer *fyne.Container, anchor fyne.CanvasObject, text string) fyne.CanvasObject {
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground))
	bg.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	bg.StrokeWidth = 1
	tip := container.NewStack(bg, widget.NewLabel(text))
	size := tip.MinSize()
	d := fyne.CurrentApp().Driver()
	at := d.AbsolutePositionForObject(anchor).Subtract(d.AbsolutePositionForObject(layer))
	x := min(at.X, max(layer.Size().Width-size.Width, 0)) // inside the window at the right edge
	tip.Resize(size)
	tip.Move(fyne.NewPos(max(x, 0), max(at.Y-size.Height-4, 0)))
	layer.Add(tip)
	return tip
}

// tipSelect is a Select that explains itself in a tip while the pointer
// rests on it (Fyne has no tooltips of its own). Main goroutine only.
type tipSelect struct {
	widget.Select
	tip   string
	layer *fyne.Container   // where its tip shows; nil: none
	shown fyne.CanvasObject // the tip, while it shows
	timer *time.Timer
	// later runs fn on the main goroutine after d; tests replace it.
	later func(d time.Duration, fn func()) *time.Timer
}

func newTipSelect(options []string, tip string) *tipSelect {
	s := &tipSelect{tip: tip, later: (*mainThread)(nil).after}
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
	if s.shown != nil {
		s.layer.Remove(s.shown)
		s.shown = nil
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
	if s.layer == nil || s.shown != nil {
		return
	}
	s.shown = showTip(s.layer, s, s.tip)
}

// tipLabel is a status bar label that cuts its text with an ellipsis and,
// when it is cut, shows the whole text in a tip while the pointer rests
// on it, or when it is clicked. Main goroutine only.
type tipLabel struct {
	widget.Label
	// onText runs after the text changed: the row lays its labels out
	// again for the new width.
	onText func()
	layer  *fyne.Container   // where its tip shows; nil: none
	shown  fyne.CanvasObject // the tip, while it shows
	timer  *time.Timer
	// later runs fn on the main goroutine after d; tests replace it.
	later func(d time.Duration, fn func()) *time.Timer
}

func newTipLabel(text string) *tipLabel {
	l := &tipLabel{later: (*mainThread)(nil).after}
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
	if l.shown != nil {
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
	if l.shown != nil {
		l.layer.Remove(l.shown)
		l.shown = nil
	}
}

// showTip shows the whole text just above the label when it is cut.
func (l *tipLabel) showTip() {
	if l.layer == nil || !l.cut() {
		return
	}
	l.hideTip()
	l.shown = showTip(l.layer, l, l.Text)
}
