package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// Escape closes the dialog or pop-up on top, wherever the keyboard is:
// with nothing focused the canvas hears the key, in a dialog's entry the
// entry passes it on (escEntry). A dialog closes as its dismiss button
// would (a form's callback hears false; a permission request is denied);
// another pop-up is hidden. Main goroutine only, like every event.

// dialogStack is what Escape closes on one window: the dialogs shown on
// its canvas, by the overlay that holds each. The window owns one; the
// parts that show dialogs (tree, tabs, notices) hold it. Main goroutine only.
type dialogStack struct {
	win   fyne.Window
	shown map[fyne.CanvasObject]dialog.Dialog
	armed bool // Escape's handler is set on the canvas
}

func newDialogStack(win fyne.Window) *dialogStack {
	return &dialogStack{win: win, shown: map[fyne.CanvasObject]dialog.Dialog{}}
}

// show shows d so that Escape closes it, with its text fitted to the
// window (dialogfit.go) and its first entry focused (keys.go: a dialog
// owns the keyboard until it closes).
func (s *dialogStack) show(d dialog.Dialog) {
	d.Show()
	s.arm()
	c := s.win.Canvas()
	if top := c.Overlays().Top(); top != nil {
		s.shown[top] = d
		fitDialogText(c, top)
		escapeAwareButtons(top, d)
	}
	s.forgetClosed()
	focusDialogEntry(c, d)
}

// arm makes Escape on the canvas close what is on top (a pop-up shown
// without show is hidden). It sets the handler once.
func (s *dialogStack) arm() {
	if s.armed {
		return
	}
	s.armed = true
	s.win.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape {
			s.escapeTop()
		}
	})
}

// showError and showInfo are dialog.ShowError and ShowInformation that
// Escape closes.
func (s *dialogStack) showError(err error) { s.show(dialog.NewError(err, s.win)) }

func (s *dialogStack) showInfo(title, msg string) {
	s.show(dialog.NewInformation(title, msg, s.win))
}

// escapeTop closes what is on top of the canvas, reporting whether there
// was one.
func (s *dialogStack) escapeTop() bool {
	c := s.win.Canvas()
	top := c.Overlays().Top()
	if top == nil {
		return false
	}
	if d, ok := s.shown[top]; ok {
		delete(s.shown, top)
		d.Hide()
	} else {
		top.Hide()
		c.Overlays().Remove(top)
	}
	s.forgetClosed()
	return true
}

// forgetClosed drops the dialogs that are no longer shown.
func (s *dialogStack) forgetClosed() {
	shown := map[fyne.CanvasObject]bool{}
	for _, o := range s.win.Canvas().Overlays().List() {
		shown[o] = true
	}
	for o := range s.shown {
		if !shown[o] {
			delete(s.shown, o)
		}
	}
}

// escEntry is an entry for a dialog: Escape closes the dialog instead of
// doing nothing.
type escEntry struct {
	widget.Entry
	dialogs *dialogStack // the window's, whose top Escape closes
}

func newEscEntry(dialogs *dialogStack) *escEntry {
	e := &escEntry{dialogs: dialogs}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey implements fyne.Focusable.
func (e *escEntry) TypedKey(k *fyne.KeyEvent) {
	if passWindowKey(e, k) {
		return
	}
	if k.Name == fyne.KeyEscape {
		if e.dialogs != nil && e.dialogs.escapeTop() {
			return
		}
	}
	e.Entry.TypedKey(k)
}
