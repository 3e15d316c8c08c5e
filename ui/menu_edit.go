package ui

import (
	"fmt"
	"trestle/ui/editor"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// The File menu's editor items and the Edit menu, the shortcuts behind
// them, and the question a quit with unsaved files asks. Menu items run on
// the main goroutine, like every menu action.

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
	clip := fyne.CurrentApp().Clipboard()
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
// else to the active editor; with a dialog or pop-up open, only to what is
// focused in it (keys.go): never to the editor behind it.
func (w *Window) sendShortcut(sc fyne.Shortcut) {
	if f, ok := w.win.Canvas().Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(sc)
		return
	}
	if w.modalOpen() {
		return
	}
	w.withEditor(func(e *editor.Editor) { e.Page().TypedShortcut(sc) })
}

// confirmQuit closes the window, first asking whether to save when any tab
// has unsaved changes. It is the window's close intercept and runs on the
// main goroutine.
func (w *Window) confirmQuit() {
	dirty := w.tabs.dirtyTabs()
	if len(dirty) == 0 {
		w.win.Close()
		return
	}
	msg := fmt.Sprintf("%d file(s) have unsaved changes: %s", len(dirty), fileNames(dirty))
	askSave(w.dialogs, "Quit Trestle", msg, func() {
		w.tabs.saveAll(func(ok bool) {
			if ok {
				w.win.Close()
			}
		})
	}, w.win.Close)
}

// editorShortcuts binds Ctrl+S (save), Ctrl+W (close the tab), Ctrl+F
// (find) and Ctrl+G (go to line) for
// when the focus is outside the editor; a focused editor saves itself.
// Main goroutine only.
func (w *Window) editorShortcuts() {
	w.shortcut(fyne.KeyS, w.tabs.saveActive)
	w.shortcut(fyne.KeyW, w.closeActiveTab)
	w.shortcut(fyne.KeyF, func() { w.withEditor((*editor.Editor).ShowFind) })
	w.shortcut(fyne.KeyG, func() { w.withEditor((*editor.Editor).ShowGoToLine) })
}

// withEditor calls fn with the active editor, if there is one.
func (w *Window) withEditor(fn func(*editor.Editor)) {
	if e := w.tabs.activeEditor(); e != nil {
		fn(e)
	}
}

// saveAll saves every tab with unsaved changes. Main goroutine only.
func (w *Window) saveAll() { w.tabs.saveAll(nil) }

// closeActiveTab closes the selected tab, asking first when it has unsaved
// changes. Main goroutine only.
func (w *Window) closeActiveTab() {
	if t := w.tabs.current(); t != nil {
		w.tabs.askClose(t.item)
	}
}
