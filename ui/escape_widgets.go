package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// Escape closes a dialog wherever the keyboard is in it. Fyne's desktop
// driver gives a key without Ctrl or Alt to the focused widget only, and a
// Button, Check, Select or List ignores Escape: once Tab had moved the
// focus onto one of a dialog's buttons, Escape did nothing. So every
// widget a dialog can focus passes Escape to the window (passEscape), as
// the canvas hears it with nothing focused: the buttons Fyne's dialogs
// make are swapped for escButtons when the dialog is shown
// (escapeAwareButtons), and the widgets of a dialog's content are made as
// these types (escEntry for text).

// passEscape hands Escape typed into o, a widget in a dialog or pop-up, to
// its window's canvas, whose key handler closes what is on top
// (dialogStack.arm), and reports whether it did.
func passEscape(o fyne.CanvasObject, k *fyne.KeyEvent) bool {
	if k.Name != fyne.KeyEscape {
		return false
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(o)
	if c == nil || c.Overlays().Top() == nil {
		return false
	}
	fn := c.OnTypedKey()
	if fn == nil {
		return false
	}
	fn(k)
	return true
}

// escButton is a button for a dialog: Escape closes the dialog.
type escButton struct{ widget.Button }

func newEscButton(text string, tapped func()) *escButton {
	b := &escButton{}
	b.Text, b.OnTapped = text, tapped
	b.ExtendBaseWidget(b)
	return b
}

// TypedKey implements fyne.Focusable.
func (b *escButton) TypedKey(k *fyne.KeyEvent) {
	if !passWindowKey(b, k) && !passEscape(b, k) {
		b.Button.TypedKey(k)
	}
}

// escCheck is a check box for a dialog: Escape closes the dialog.
type escCheck struct{ widget.Check }

func newEscCheck(text string, changed func(bool)) *escCheck {
	c := &escCheck{}
	c.Text, c.OnChanged = text, changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey implements fyne.Focusable.
func (c *escCheck) TypedKey(k *fyne.KeyEvent) {
	if !passWindowKey(c, k) && !passEscape(c, k) {
		c.Check.TypedKey(k)
	}
}

// escSelect is a select for a dialog: Escape closes the dialog (its
// open list is a pop-up of its own, which Escape closes first).
type escSelect struct{ widget.Select }

func newEscSelect(options []string, changed func(string)) *escSelect {
	s := &escSelect{}
	s.Options, s.OnChanged, s.PlaceHolder = options, changed, "(Select one)"
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey implements fyne.Focusable.
func (s *escSelect) TypedKey(k *fyne.KeyEvent) {
	if !passWindowKey(s, k) && !passEscape(s, k) {
		s.Select.TypedKey(k)
	}
}

// escList is a list for a dialog: Escape closes the dialog.
type escList struct{ widget.List }

func newEscList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *escList {
	l := &escList{}
	l.Length, l.CreateItem, l.UpdateItem = length, create, update
	l.ExtendBaseWidget(l)
	return l
}

// TypedKey implements fyne.Focusable.
func (l *escList) TypedKey(k *fyne.KeyEvent) {
	if !passWindowKey(l, k) && !passEscape(l, k) {
		l.List.TypedKey(k)
	}
}

// escapeAwareButtons swaps the plain buttons of the button row of the
// dialog d, shown as top, for escButtons that do what they did: Fyne
// makes a dialog's buttons itself. A form's confirm button follows the
// form's validation as Fyne's did, the one swapped out too (its
// Submit reads it). Main goroutine only.
func escapeAwareButtons(top fyne.CanvasObject, d dialog.Dialog) {
	pop, ok := top.(*widget.PopUp)
	if !ok {
		return
	}
	box, ok := pop.Content.(*fyne.Container)
	if !ok || len(box.Objects) != 5 {
		return
	}
	row, ok := box.Objects[3].(*fyne.Container)
	if !ok {
		return
	}
	for i, o := range row.Objects {
		old, ok := o.(*widget.Button)
		if !ok {
			continue
		}
		b := newEscButton(old.Text, old.OnTapped)
		b.Icon, b.Importance, b.Alignment, b.IconPlacement = old.Icon, old.Importance, old.Alignment, old.IconPlacement
		if old.Disabled() {
			b.Disable()
		}
		row.Objects[i] = b
		if form, ok := box.Objects[2].(*widget.Form); ok && old.Importance == widget.HighImportance {
			if _, isForm := d.(*dialog.FormDialog); isForm {
				form.SetOnValidationChanged(func(err error) { setEnabled(err == nil, old, &b.Button) })
			}
		}
	}
	row.Refresh()
}

// setEnabled enables or disables each of buttons.
func setEnabled(on bool, buttons ...*widget.Button) {
	for _, b := range buttons {
		if on {
			b.Enable()
		} else {
			b.Disable()
		}
	}
}
