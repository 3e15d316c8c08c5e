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
