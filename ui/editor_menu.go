package ui

import (
	"trestle/ui/editor"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// Menu items run on the main goroutine, like every menu action.

// ctrlKey is Ctrl (Cmd on macOS) + key, with Shift when shift is set.
func ctrlKey(key fyne.KeyName, shift bool) *desktop.CustomShortcut {
	mod := fyne.KeyModifierShortcutDefault
	if shift {
		mod |= fyne.KeyModifierShift
	}
	return &desktop.CustomShortcut{KeyName: key, Modifier: mod}
}

// menuItem is a menu item that shows its shortcut. Fyne runs a main
// menu's shortcut before the focused widget sees the key.
func menuItem(label string, sc fyne.Shortcut, fn func()) *fyne.MenuItem {
	it := fyne.NewMenuItem(label, fn)
	it.Shortcut = sc
	return it
}

// fileItems are the File menu's editor items: Save (Ctrl+S), Save All
// (Ctrl+Shift+S; the Run menu has Ctrl+Shift+B, T, V and X) and Close Tab
// (Ctrl+W).
func (w *Window) fileItems() []*fyne.MenuItem {
	return []*fyne.MenuItem{
		menuItem("Save", ctrlKey(fyne.KeyS, false), w.tabs.saveActive),
		menuItem("Save All", ctrlKey(fyne.KeyS, true), w.saveAll),
		menuItem("Close Tab", ctrlKey(fyne.KeyW, false), w.closeActiveTab),
	}
}

// editMenu acts on what has the keyboard: an entry (the find bar, the
// Eval line) or the active editor. Find and Go to Line are the editor's.
func (w *Window) editMenu() *fyne.Menu {
	clip := w.win.Clipboard()
	send := func(sc fyne.Shortcut) func() { return func() { w.sendShortcut(sc) } }
	return fyne.NewMenu("Edit",
		menuItem("Undo", &fyne.ShortcutUndo{}, send(&fyne.ShortcutUndo{})),
		menuItem("Redo", ctrlKey(fyne.KeyZ, true), send(&fyne.ShortcutRedo{})),
		fyne.NewMenuItemSeparator(),
		menuItem("Cut", &fyne.ShortcutCut{}, send(&fyne.ShortcutCut{Clipboard: clip})),
		menuItem("Copy", &fyne.ShortcutCopy{}, send(&fyne.ShortcutCopy{Clipboard: clip})),
		menuItem("Paste", &fyne.ShortcutPaste{}, send(&fyne.ShortcutPaste{Clipboard: clip})),
		menuItem("Select All", &fyne.ShortcutSelectAll{}, send(&fyne.ShortcutSelectAll{})),
		fyne.NewMenuItemSeparator(),
		menuItem("Find…", ctrlKey(fyne.KeyF, false), func() { w.withEditor((*editor.Editor).ShowFind) }),
		menuItem("Go to Line…", ctrlKey(fyne.KeyG, false), func() { w.withEditor((*editor.Editor).ShowGoToLine) }),
	)
}

// sendShortcut gives sc to the focused widget when it takes shortcuts,
// else to the active editor.
func (w *Window) sendShortcut(sc fyne.Shortcut) {
	if f, ok := w.win.Canvas().Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(sc)
		return
	}
	w.withEditor(func(e *editor.Editor) { e.Page().TypedShortcut(sc) })
}
