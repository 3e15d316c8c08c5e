package editor

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"trestle/app/textbuf"
)

// The editor page takes the keyboard and the mouse for its editor.
var (
	_ fyne.Focusable      = (*Page)(nil)
	_ fyne.Tappable       = (*Page)(nil)
	_ fyne.DoubleTappable = (*Page)(nil)
	_ fyne.Draggable      = (*Page)(nil)
	_ fyne.Shortcutable   = (*Page)(nil)
	_ fyne.Tabbable       = (*Page)(nil)
	_ desktop.Mouseable   = (*Page)(nil)
	_ desktop.Keyable     = (*Page)(nil)
	_ fyne.Scrollable     = (*wheel)(nil)
)

// FocusGained is called by Fyne on the main goroutine, like every event here.
func (p *Page) FocusGained() {}

// FocusLost forgets a held Shift key: its KeyUp goes elsewhere.
func (p *Page) FocusLost() { p.e.shift = false }

// AcceptsTab makes Tab indent instead of moving the focus.
func (p *Page) AcceptsTab() bool { return true }

// TypedRune types r over the selection.
func (p *Page) TypedRune(r rune) {
	p.e.typeRune(r)
	if p.e.intel != nil {
		p.e.intel.typedRune(r)
	}
}

// KeyDown notes a Shift key going down, for Shift+arrows.
func (p *Page) KeyDown(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		p.e.shift = true
	}
}

// KeyUp notes a Shift key coming up.
func (p *Page) KeyUp(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		p.e.shift = false
	}
}

// TypedKey moves the caret or edits for a key without Ctrl.
func (p *Page) TypedKey(ev *fyne.KeyEvent) {
	e := p.e
	if e.intel != nil && e.intel.typedKey(ev.Name) {
		return
	}
	if e.editKey(ev.Name) {
		return
	}
	if to, ok := e.moveKey(ev.Name); ok {
		e.moveTo(to, e.shift)
		e.keepCell(ev.Name)
		return
	}
	p.forwardKey(ev)
}

// forwardKey hands a key the editor does not use (F10, say) to the
// window's canvas, as forward does a shortcut.
func (p *Page) forwardKey(ev *fyne.KeyEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(p); c != nil {
		if fn := c.OnTypedKey(); fn != nil {
			fn(ev)
		}
	}
}

// editKey does what an editing key does and reports whether name was one.
func (e *Editor) editKey(name fyne.KeyName) bool {
	switch name {
	case fyne.KeyReturn, fyne.KeyEnter:
		e.newline()
	case fyne.KeyBackspace:
		e.backspace()
	case fyne.KeyDelete:
		e.deleteForward()
	case fyne.KeyTab:
		e.tab()
	case fyne.KeyEscape:
		e.bars.hide()
	default:
		return false
	}
	return true
}

// tab indents the selected lines, or types a tab; with Shift it outdents.
func (e *Editor) tab() {
	first, last := e.selectedLines()
	switch {
	case e.shift:
		e.outdent()
	case first != last || !e.Selection().Empty() && e.Selection().Start.Col == 0:
		e.indent()
	default:
		e.typeText("\t")
	}
}

// moveKey returns where a movement key takes the caret.
func (e *Editor) moveKey(name fyne.KeyName) (textbuf.Pos, bool) {
	c, sel := e.caret, e.Selection()
	switch name {
	case fyne.KeyLeft:
		if !sel.Empty() && !e.shift {
			return sel.Start, true
		}
		return e.before(c), true
	case fyne.KeyRight:
		if !sel.Empty() && !e.shift {
			return sel.End, true
		}
		return e.after(c), true
	case fyne.KeyUp:
		return e.lineMove(-1), true
	case fyne.KeyDown:
		return e.lineMove(1), true
	case fyne.KeyPageUp:
		return e.lineMove(-e.pageRows()), true
	case fyne.KeyPageDown:
		return e.lineMove(e.pageRows()), true
	case fyne.KeyHome:
		return e.home(), true
	case fyne.KeyEnd:
		return textbuf.Pos{Line: c.Line, Col: e.buf.LineLen(c.Line)}, true
	}
	return c, false
}

// keepCell remembers the display column Up and Down started from, so a
// run of them through short lines comes back to it.
func (e *Editor) keepCell(name fyne.KeyName) {
	switch name {
	case fyne.KeyUp, fyne.KeyDown, fyne.KeyPageUp, fyne.KeyPageDown:
		e.wantCell = e.lastCell
	}
}

// lineMove returns the position n lines down (up when n < 0) at the same
// display column, or the nearest one.
func (e *Editor) lineMove(n int) textbuf.Pos {
	cell := e.wantCell
	if cell < 0 {
		cell = textbuf.CellOf(e.buf.Line(e.caret.Line), e.caret.Col, e.tabWidth)
	}
	e.lastCell = cell
	line := min(max(e.caret.Line+n, 0), e.buf.LineCount()-1)
	return textbuf.Pos{Line: line, Col: textbuf.ColAt(e.buf.Line(line), cell, e.tabWidth)}
}

// pageRows is how many lines PageUp and PageDown move: a screenful less one.
func (e *Editor) pageRows() int {
	if e.look.cell.Height == 0 {
		return 1
	}
	return max(int(e.scroll.Size().Height/e.look.cell.Height)-1, 1)
}

// home returns the first non-blank column of the caret's line, or column
// 0 when the caret is there already.
func (e *Editor) home() textbuf.Pos {
	line := e.buf.Line(e.caret.Line)
	indent := len([]rune(textbuf.LeadingSpace(line)))
	if e.caret.Col == indent {
		indent = 0
	}
	return textbuf.Pos{Line: e.caret.Line, Col: indent}
}

// TypedShortcut runs the editing and navigation shortcuts; others go to
// the window.
func (p *Page) TypedShortcut(s fyne.Shortcut) {
	e := p.e
	switch s := s.(type) {
	case *fyne.ShortcutCopy:
		e.copySelection()
	case *fyne.ShortcutCut:
		e.copySelection()
		e.deleteRange(e.Selection())
	case *fyne.ShortcutPaste:
		e.paste()
	case *fyne.ShortcutSelectAll:
		e.SelectRange(textbuf.Range{End: e.buf.End()})
	case *fyne.ShortcutUndo:
		e.Undo()
	case *fyne.ShortcutRedo:
		e.Redo()
	case *desktop.CustomShortcut:
		if !e.customShortcut(s) {
			p.forward(s)
		}
	default:
		p.forward(s)
	}
}

// forward hands a shortcut the editor does not know to the window's
// canvas, whose shortcuts (Ctrl+O, Ctrl+,) a focused widget would
// otherwise swallow.
func (p *Page) forward(s fyne.Shortcut) {
	c := fyne.CurrentApp().Driver().CanvasForObject(p)
	if sh, ok := c.(fyne.Shortcutable); ok {
		sh.TypedShortcut(s)
	}
}

// customShortcut runs a Ctrl or Alt shortcut and reports whether it knew it.
func (e *Editor) customShortcut(s *desktop.CustomShortcut) bool {
	ctrl := fyne.KeyModifierShortcutDefault
	shift := s.Modifier&fyne.KeyModifierShift != 0
	if s.Modifier&^fyne.KeyModifierShift == fyne.KeyModifierAlt {
		return e.altShortcut(s.KeyName, shift)
	}
	if s.Modifier&^fyne.KeyModifierShift != ctrl {
		return false
	}
	switch s.KeyName {
	case fyne.KeyLeft:
		e.moveTo(e.wordLeft(), shift)
	case fyne.KeyRight:
		e.moveTo(e.wordRight(), shift)
	case fyne.KeySlash:
		if shift {
			return false
		}
		e.toggleComment()
	case fyne.KeyD:
		if !shift {
			return false
		}
		e.duplicateLines()
	case fyne.KeyZ:
		if !shift {
			return false
		}
		e.Redo()
	case fyne.KeyHome:
		e.moveTo(textbuf.Pos{}, shift)
	case fyne.KeyEnd:
		e.moveTo(e.buf.End(), shift)
	case fyne.KeyS:
		if shift {
			return false // Save All, the window's
		}
		if e.OnSave != nil {
			e.OnSave()
		}
	case fyne.KeyReturn, fyne.KeyEnter:
		if shift {
			return false
		}
		e.evaluate()
	case fyne.KeyF:
		if shift {
			return false // Find in Files, the window's
		}
		e.bars.showFind()
	case fyne.KeyG:
		e.bars.showGoto()
	case fyne.KeySpace:
		if e.intel == nil {
			return false
		}
		e.intel.complete()
	case fyne.KeyO:
		if !shift || e.intel == nil {
			return false
		}
		e.intel.host.Outline(e.intel.path)
	default:
		return false
	}
	return true
}

// altShortcut runs an Alt shortcut the editor knows (Alt+Up and Down move
// the selected lines, with Shift they duplicate them) and reports whether
// it knew it. Alt+Left and Right (back and forward) are the window's.
func (e *Editor) altShortcut(key fyne.KeyName, shift bool) bool {
	switch {
	case key == fyne.KeyUp && !shift:
		e.moveLines(-1)
	case key == fyne.KeyDown && !shift:
		e.moveLines(1)
	case key == fyne.KeyDown && shift:
		e.duplicateLines()
	default:
		return false
	}
	return true
}

// copySelection puts the selected text on the clipboard.
func (e *Editor) copySelection() {
	if text := e.SelectedText(); text != "" {
		fyne.CurrentApp().Clipboard().SetContent(text)
	}
}

// paste types the clipboard's text over the selection.
func (e *Editor) paste() {
	if text := fyne.CurrentApp().Clipboard().Content(); text != "" {
		e.buf.Seal()
		e.replaceSelection(text)
		e.buf.Seal()
	}
}

// MouseDown focuses the editor and places the caret, or with Shift
// extends the selection to the pointer.
func (p *Page) MouseDown(ev *desktop.MouseEvent) {
	p.focus()
	if ev.Button != desktop.MouseButtonPrimary {
		return
	}
	p.e.pressed = true
	extend := ev.Modifier&fyne.KeyModifierShift != 0
	p.e.moveTo(p.e.posAt(ev.Position), extend)
	if in := p.e.intel; in != nil && ev.Modifier&fyne.KeyModifierShortcutDefault != 0 {
		in.ctrlClick(p.e.runeAt(ev.Position)) // Ctrl+click: go to definition
	}
}

// MouseUp does nothing: a click was handled when the button went down.
func (p *Page) MouseUp(*desktop.MouseEvent) {}

// Tapped places the caret, unless MouseDown already did.
func (p *Page) Tapped(ev *fyne.PointEvent) {
	if p.e.pressed {
		p.e.pressed = false
		return
	}
	p.focus()
	p.e.moveTo(p.e.posAt(ev.Position), false)
}

// DoubleTapped selects the word at the pointer.
func (p *Page) DoubleTapped(ev *fyne.PointEvent) {
	e := p.e
	e.pressed = false
	at := e.runeAt(ev.Position)
	start, end := textbuf.WordAt(e.buf.Line(at.Line), at.Col)
	e.SelectRange(textbuf.Range{Start: textbuf.Pos{Line: at.Line, Col: start}, End: textbuf.Pos{Line: at.Line, Col: end}})
}

// Dragged extends the selection to the pointer.
func (p *Page) Dragged(ev *fyne.DragEvent) {
	p.e.moveTo(p.e.posAt(ev.Position), true)
}

// DragEnd ends a drag selection.
func (p *Page) DragEnd() {}

// focus gives the page the keyboard.
func (p *Page) focus() {
	if c := fyne.CurrentApp().Driver().CanvasForObject(p); c != nil {
		c.Focus(p)
	}
}

// wheelNotch is how far Fyne says one notch of a mouse wheel scrolls on
// Linux and Windows (its scrollSpeed, 25 px): about one and a half lines
// of code, where editors move three.
const wheelNotch = 25

// wheelLines is how many lines one notch scrolls.
const wheelLines = 3

// wheel takes the mouse wheel over the editor's view, before the Scroll
// under it would. It is not the page: Fyne clips a Scrollable's children
// to its own bounds, and the page, as large as the text, would then take
// clicks and hovers outside the view once scrolled (a click on a tab
// header moved the caret; a hover opened over the pane below). The wheel
// covers exactly the view (place moves it) and has no children.
type wheel struct {
	widget.BaseWidget
	e *Editor
}

func newWheel(e *Editor) *wheel {
	w := &wheel{e: e}
	w.ExtendBaseWidget(w)
	return w
}

// CreateRenderer draws nothing.
func (w *wheel) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

// Scrolled scrolls the view wheelLines lines a notch (a touchpad's small
// deltas in proportion); Shift scrolls sideways.
func (w *wheel) Scrolled(ev *fyne.ScrollEvent) {
	e := w.e
	cell := e.look.cell
	if cell.Height == 0 {
		return
	}
	dx, dy := ev.Scrolled.DX, ev.Scrolled.DY
	if e.shift && dx == 0 {
		dx, dy = dy, 0
	}
	off := e.scroll.Offset
	off.X -= dx / wheelNotch * wheelLines * cell.Width * 2 // columns are narrow: six a notch
	off.Y -= dy / wheelNotch * wheelLines * cell.Height
	content, view := e.page.MinSize(), e.scroll.Size()
	off.X = min(off.X, max(0, content.Width-view.Width))
	off.Y = min(off.Y, max(0, content.Height-view.Height))
	e.scrollTo(off)
}
