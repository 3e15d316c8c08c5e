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

// escapeStacks maps each canvas to the dialogs shown on it, by the
// overlay that holds each.
var escapeStacks = map[fyne.Canvas]map[fyne.CanvasObject]dialog.Dialog{}

// showDialog shows d on c so that Escape closes it, with its first entry
// focused (keys.go: a dialog owns the keyboard until it closes).
func showDialog(c fyne.Canvas, d dialog.Dialog) {
	d.Show()
	stack := escapeCloses(c)
	if top := c.Overlays().Top(); top != nil {
		stack[top] = d
	}
	forgetClosed(c)
	focusDialogEntry(c, d)
}

// escapeCloses makes Escape on c close what is on top (a pop-up shown
// without showDialog is hidden), and returns c's dialogs.
func escapeCloses(c fyne.Canvas) map[fyne.CanvasObject]dialog.Dialog {
	stack := escapeStacks[c]
	if stack == nil {
		stack = map[fyne.CanvasObject]dialog.Dialog{}
		escapeStacks[c] = stack
		c.SetOnTypedKey(func(k *fyne.KeyEvent) {
			if k.Name == fyne.KeyEscape {
				escapeTop(c)
			}
		})
	}
	return stack
}

// showError and showInfo are dialog.ShowError and ShowInformation that
// Escape closes.
func showError(err error, win fyne.Window) { showDialog(win.Canvas(), dialog.NewError(err, win)) }

func showInfo(title, msg string, win fyne.Window) {
	showDialog(win.Canvas(), dialog.NewInformation(title, msg, win))
}

// escapeTop closes what is on top of c, reporting whether there was one.
func escapeTop(c fyne.Canvas) bool {
	top := c.Overlays().Top()
	if top == nil {
		return false
	}
	if d, ok := escapeStacks[c][top]; ok {
		delete(escapeStacks[c], top)
		d.Hide()
	} else {
		top.Hide()
		c.Overlays().Remove(top)
	}
	forgetClosed(c)
	return true
}

// forgetClosed drops the dialogs of c that are no longer shown.
func forgetClosed(c fyne.Canvas) {
	shown := map[fyne.CanvasObject]bool{}
	for _, o := range c.Overlays().List() {
		shown[o] = true
	}
	for o := range escapeStacks[c] {
		if !shown[o] {
			delete(escapeStacks[c], o)
		}
	}
}

// escEntry is an entry for a dialog: Escape closes the dialog instead of
// doing nothing.
type escEntry struct {
	widget.Entry
}

func newEscEntry() *escEntry {
	e := &escEntry{}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey implements fyne.Focusable.
func (e *escEntry) TypedKey(k *fyne.KeyEvent) {
	if passWindowKey(e, k) {
		return
	}
	if k.Name == fyne.KeyEscape {
		if c := fyne.CurrentApp().Driver().CanvasForObject(e); c != nil && escapeTop(c) {
			return
		}
	}
	e.Entry.TypedKey(k)
}
