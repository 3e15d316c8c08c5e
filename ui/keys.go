package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// Where keys go, decided in one place for the whole window.
//
// Fyne's desktop driver hands a key press with Ctrl or Alt to the main
// menu's shortcuts first, then to the focused widget, then to the
// canvas's shortcuts; plain keys and typed text go to the focused widget.
// With a dialog or pop-up on top, "focused" means focused in that overlay
// (each overlay has its own focus manager), but the main menu's shortcuts
// and the window's own fallbacks still run and would act on the editor
// behind it: F2, then Ctrl+A, Ctrl+X cut a whole file behind the rename
// dialog. So:
//
//   - a dialog or pop-up owns the keyboard until it closes: every window
//     action bound to a key (menu items, canvas shortcuts) does nothing
//     while one is open (guardMenu, bindKey), and the Edit menu's
//     clipboard items go to what is focused in it, never behind it
//     (sendShortcut);
//   - a dialog that asks for text has its entry focused and Enter submits
//     it (dialogStack.show);
//   - what a person opens gets the keyboard (giveKeys); what an agent opens
//     takes it only from an editor that the open hid (tabArea.showForAgent).

// keysUI is where the window's keys go: the guard that gives a dialog the
// keyboard, the canvas's shortcuts, the View menu's tab and focus keys,
// and Alt+letter and F10 opening the menu bar (menukeys.go). It reaches
// the window's canvas, tabs, tree and panes through w. Main goroutine
// only.
type keysUI struct {
	w *Window
	// bar opens the menu bar's menus for Alt+letter and F10 (menukeys.go).
	bar menuBar
}

// modalOpen reports whether a dialog or pop-up is on top of the window
// and so owns the keyboard. Main goroutine only.
func (k *keysUI) modalOpen() bool { return k.w.win.Canvas().Overlays().Top() != nil }

// keyed wraps a window action bound to a key so that it does nothing while
// a dialog or pop-up owns the keyboard.
func (k *keysUI) keyed(fn func()) func() {
	return func() {
		if !k.modalOpen() {
			fn()
		}
	}
}

// bindKey binds sc on the canvas (for when the focused widget takes no
// shortcuts) to fn, guarded by keyed. Main goroutine only.
func (k *keysUI) bindKey(sc fyne.Shortcut, fn func()) {
	guarded := k.keyed(fn)
	k.w.win.Canvas().AddShortcut(sc, func(fyne.Shortcut) { guarded() })
}

// shortcut binds Ctrl (Cmd on macOS) + key to fn (bindKey).
func (k *keysUI) shortcut(key fyne.KeyName, fn func()) {
	k.bindKey(ctrlKey(key, false), fn)
}

// guardMenu makes every action of m that a key can reach do nothing while a
// dialog or pop-up owns the keyboard; the Edit menu's clipboard items are
// left to sendShortcut, which gives them to the dialog's entry. A click
// on the menu or a palette pick cannot happen then (the dialog covers the
// menu; the palette closes before it runs its pick). Main goroutine only.
func (k *keysUI) guardMenu(m *fyne.MainMenu) {
	var walk func(items []*fyne.MenuItem)
	walk = func(items []*fyne.MenuItem) {
		for _, it := range items {
			if it.ChildMenu != nil {
				walk(it.ChildMenu.Items)
			}
			if it.Action != nil && !toFocused(it.Shortcut) {
				it.Action = k.keyed(it.Action)
			}
		}
	}
	for _, menu := range m.Items {
		walk(menu.Items)
	}
}

// toFocused reports whether sc is one the Edit menu hands to the focused
// widget (undo, redo, the clipboard, select all).
func toFocused(sc fyne.Shortcut) bool {
	switch sc.(type) {
	case *fyne.ShortcutUndo, *fyne.ShortcutRedo, *fyne.ShortcutCut, *fyne.ShortcutCopy,
		*fyne.ShortcutPaste, *fyne.ShortcutSelectAll:
		return true
	}
	return sc != nil && sc.ShortcutName() == ctrlKey(fyne.KeyZ, true).ShortcutName()
}

// giveKeys moves the keyboard to o, the thing a person just opened or
// asked for. Under a dialog the desktop driver focuses it in the window's
// content, for when the dialog closes: the dialog keeps the keyboard. Main
// goroutine only.
func (k *keysUI) giveKeys(o fyne.Focusable) {
	if o != nil {
		k.w.win.Canvas().Focus(o)
	}
}

// focusDialogEntry gives the first entry of d, just shown on top of c, the
// keyboard, so that what the person types goes into it, and makes Enter in
// a form's single-line entry submit the form; a dialog without an entry
// keeps nothing focused (Escape still closes it). Main goroutine only.
func focusDialogEntry(c fyne.Canvas, d dialog.Dialog) {
	if c.Overlays().Top() == nil || c.Focused() != nil {
		return
	}
	c.FocusNext() // the overlay's first focusable, in tree order: a form's first field
	var entry *widget.Entry
	switch e := c.Focused().(type) {
	case *widget.Entry:
		entry = e
	case *escEntry:
		entry = &e.Entry
	default:
		c.Unfocus()
		return
	}
	if form, ok := d.(*dialog.FormDialog); ok && !entry.MultiLine && entry.OnSubmitted == nil {
		entry.OnSubmitted = func(string) { form.Submit() }
	}
}

// tabItems are the View menu's tab switching: Ctrl+Tab and Ctrl+PageDown
// select the next tab, Ctrl+Shift+Tab and Ctrl+PageUp the previous one,
// wrapping around. They are menu items because the desktop driver gives a
// main menu's shortcuts the key before the focused editor.
func (k *keysUI) tabItems() []*fyne.MenuItem {
	return []*fyne.MenuItem{
		menuItem("Next Tab", ctrlKey(fyne.KeyTab, false), func() { k.cycleTabs(1) }),
		menuItem("Previous Tab", ctrlKey(fyne.KeyTab, true), func() { k.cycleTabs(-1) }),
		menuItem("Next Tab (Page Down)", ctrlKey(fyne.KeyPageDown, false), func() { k.cycleTabs(1) }),
		menuItem("Previous Tab (Page Up)", ctrlKey(fyne.KeyPageUp, false), func() { k.cycleTabs(-1) }),
	}
}

// focusItems are the View menu's keys to the window's parts: Ctrl+0 the
// file tree (the arrows walk it), Ctrl+1 the active editor, Ctrl+2 the
// bottom pane shown.
func (k *keysUI) focusItems() []*fyne.MenuItem {
	w := k.w
	return []*fyne.MenuItem{
		menuItem("Focus File Tree", ctrlKey(fyne.Key0, false), func() { k.giveKeys(w.tree) }),
		menuItem("Focus Editor", ctrlKey(fyne.Key1, false), func() {
			if t := w.tabs.current(); t != nil {
				w.tabs.focusText(t)
			}
		}),
		menuItem("Focus Pane", ctrlKey(fyne.Key2, false), func() {
			if p := w.panes.selected(); p != nil {
				k.focusPane(p)
			}
		}),
	}
}

// cycleTabs selects the tab by steps away from the selected one, wrapping
// around, and gives its editor the keyboard. Main goroutine only.
func (k *keysUI) cycleTabs(by int) {
	w := k.w
	docs := w.tabs.docs
	n := len(docs.Items)
	if n < 2 {
		return
	}
	i := (docs.SelectedIndex() + by + n) % n
	docs.SelectIndex(i) // selected gives the editor the keyboard
	if t := w.tabs.current(); t != nil {
		w.tabs.focusText(t)
	}
}

// focusPane shows the bottom pane p and gives it the keyboard: its
// paneFocus (the Eval line, the search field), or the pane itself when it
// takes keys (a list walks with the arrows). Main goroutine only.
func (k *keysUI) focusPane(p pane) {
	k.w.panes.show(p)
	k.giveKeys(focusTarget(p))
}
