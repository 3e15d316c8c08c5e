package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"trestle/app/lsp"
	"trestle/app/textbuf"
	"trestle/ui/editor"
)

// menuItems are the Edit menu's Go actions on the active editor's caret,
// so that the command palette lists them too: definition (F12),
// references (Shift+F12), rename (F2), outline (Ctrl+Shift+O) and format
// (Ctrl+Shift+I). F12, Shift+F12 and F2 reach the editor itself; the menu
// shows them. Main goroutine only.
func (g *goplsUI) menuItems() []*fyne.MenuItem {
	w := g.w
	key := func(k fyne.KeyName, mod fyne.KeyModifier) fyne.Shortcut {
		return &desktop.CustomShortcut{KeyName: k, Modifier: mod}
	}
	return []*fyne.MenuItem{
		fyne.NewMenuItemSeparator(),
		menuItem("Go to Definition", key(fyne.KeyF12, 0), func() {
			g.atCaret(func(path string, pos lsp.Position, _ *editor.Editor) { w.goTo.definition(path, pos) })
		}),
		menuItem("Find References", key(fyne.KeyF12, fyne.KeyModifierShift), func() {
			g.atCaret(func(path string, pos lsp.Position, _ *editor.Editor) { w.goTo.references(path, pos) })
		}),
		menuItem("Rename Symbol…", key(fyne.KeyF2, 0), func() {
			g.atCaret(func(path string, pos lsp.Position, e *editor.Editor) {
				line := []rune(e.Buffer().Line(pos.Line - 1))
				start, end := textbuf.WordAt(e.Buffer().Line(pos.Line-1), pos.Col-1)
				if end <= start {
					w.status.notify("Rename: the caret is on no name")
					return
				}
				w.renamer.at(path, lsp.Position{Line: pos.Line, Col: start + 1}, string(line[start:end]))
			})
		}),
		menuItem("Outline", ctrlKey(fyne.KeyO, true), func() {
			g.atCaret(func(path string, _ lsp.Position, _ *editor.Editor) { w.goTo.outline(path) })
		}),
		menuItem("Format Document", ctrlKey(fyne.KeyI, true), g.formatActive),
	}
}

// atCaret calls fn with the active Go editor's path and caret, after
// gopls has its text; without gopls or a Go editor it says why.
func (g *goplsUI) atCaret(fn func(path string, pos lsp.Position, e *editor.Editor)) {
	w := g.w
	t := w.tabs.current()
	switch {
	case t == nil || t.view == nil:
		w.status.notify("Open a Go file first")
		return
	case !holds(t.item.Content, t.view): // the caret is in the editor behind the proposal
		_, why := w.tabs.shownEditor()
		w.status.notify(why)
		return
	case g.client == nil || !t.view.HasIntel():
		w.status.notify("Go intelligence is off for " + t.path + " (gopls is not running, or this is no Go file)")
		return
	}
	t.view.SyncIntel()
	c := t.view.Caret()
	fn(t.path, lsp.Position{Line: c.Line + 1, Col: c.Col + 1}, t.view)
}

// formatActive formats the active Go editor with gopls, without saving;
// an answer that comes after the person typed on is dropped.
func (g *goplsUI) formatActive() {
	w := g.w
	g.atCaret(func(path string, _ lsp.Position, e *editor.Editor) {
		version, snap := e.Version(), e.Buffer().Snapshot() // joined off the main goroutine
		w.loading.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), goplsTimeout)
			defer cancel()
			formatted, err := g.client.Format(ctx, path)
			changed := err == nil && formatted != snap.FileText()
			g.do(func() {
				switch {
				case err != nil:
					w.status.notify("Format " + path + ": " + err.Error())
				case e.Version() == version && changed:
					e.ReplaceAll(formatted)
				}
			})
		})
	})
}
