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
func (m *menuUI) fileItems() []*fyne.MenuItem {
	return []*fyne.MenuItem{
		menuItem("Save", ctrlKey(fyne.KeyS, false), m.w.tabs.saveActive),
		menuItem("Save All", ctrlKey(fyne.KeyS, true), m.saveAll),
		menuItem("Close Tab", ctrlKey(fyne.KeyW, false), m.closeActiveTab),
	}
}

// editMenu acts on what has the keyboard: an entry (the find bar, the
// Eval line) or the active editor. Find and Go to Line are the editor's.
func (m *menuUI) editMenu() *fyne.Menu {
	clip := fyne.CurrentApp().Clipboard()
	send := func(sc fyne.Shortcut) func() { return func() { m.sendShortcut(sc) } }
	return fyne.NewMenu("Edit",
		menuItem("Undo", &fyne.ShortcutUndo{}, send(&fyne.ShortcutUndo{})),
		menuItem("Redo", ctrlKey(fyne.KeyZ, true), send(&fyne.ShortcutRedo{})),
		fyne.NewMenuItemSeparator(),
		menuItem("Cut", &fyne.ShortcutCut{}, send(&fyne.ShortcutCut{Clipboard: clip})),
		menuItem("Copy", &fyne.ShortcutCopy{}, send(&fyne.ShortcutCopy{Clipboard: clip})),
		menuItem("Paste", &fyne.ShortcutPaste{}, send(&fyne.ShortcutPaste{Clipboard: clip})),
		menuItem("Select All", &fyne.ShortcutSelectAll{}, send(&fyne.ShortcutSelectAll{})),
		fyne.NewMenuItemSeparator(),
		menuItem("Find…", ctrlKey(fyne.KeyF, false), func() { m.withEditor((*editor.Editor).ShowFind) }),
		menuItem("Go to Line…", ctrlKey(fyne.KeyG, false), func() { m.withEditor((*editor.Editor).ShowGoToLine) }),
	)
}

// sendShortcut gives sc to the focused widget when it takes shortcuts,
// else to the active editor; with a dialog or pop-up open, only to what is
// focused in it (keys.go): never to the editor behind it.
func (m *menuUI) sendShortcut(sc fyne.Shortcut) {
	if f, ok := m.w.win.Canvas().Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(sc)
		return
	}
	if m.w.keys.modalOpen() {
		return
	}
	m.withEditor(func(e *editor.Editor) { e.Page().TypedShortcut(sc) })
}

// confirmQuit closes the window, first asking whether to save when any tab
// has unsaved changes. It is the window's close intercept and runs on the
// main goroutine.
func (m *menuUI) confirmQuit() {
	w := m.w
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
func (m *menuUI) editorShortcuts() {
	k := m.w.keys
	k.shortcut(fyne.KeyS, m.w.tabs.saveActive)
	k.shortcut(fyne.KeyW, m.closeActiveTab)
	k.shortcut(fyne.KeyF, func() { m.withEditor((*editor.Editor).ShowFind) })
	k.shortcut(fyne.KeyG, func() { m.withEditor((*editor.Editor).ShowGoToLine) })
}

// withEditor calls fn with the active editor, if there is one and the
// person sees it (tabArea.shownEditor); else it says why in the status bar.
func (m *menuUI) withEditor(fn func(*editor.Editor)) {
	e, why := m.w.tabs.shownEditor()
	if e != nil {
		fn(e)
	} else if why != "" {
		m.w.status.notify(why)
	}
}

// saveAll saves every tab with unsaved changes. Main goroutine only.
func (m *menuUI) saveAll() { m.w.tabs.saveAll(nil) }

// closeActiveTab closes the selected tab, asking first when it has unsaved
// changes. Main goroutine only.
func (m *menuUI) closeActiveTab() {
	if t := m.w.tabs.current(); t != nil {
		m.w.tabs.askClose(t.item)
	}
}
