package ui

import (
	"context"
	"strings"
	"time"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/lsp"
	"trestle/app/textbuf"
)

// What gopls gives one editor: diagnostics drawn under their ranges with a
// mark in the gutter, hover, completion, go to definition and find
// references. Every request runs off the main goroutine with a deadline;
// an answer that comes back after the text, the caret or the pointer
// moved on is dropped, so a keystroke never waits on gopls.

// Delays, chosen to feel immediate without a request per keystroke.
const (
	syncDelay    = 150 * time.Millisecond // after the last keystroke, the text goes to gopls
	hoverDelay   = 450 * time.Millisecond // the pointer rests this long before a hover shows
	intelTimeout = 5 * time.Second        // the editor gives up on one answer after this
	maxHoverRune = 1500                   // a hover's text is cut here
	maxCompItems = 200
)

// editorIntel is one editor's link to gopls. Main goroutine only, except
// where a comment says otherwise.
type editorIntel struct {
	e      *editor
	path   string
	client *lsp.Client
	diags  []lsp.Diagnostic

	syncTimer  *time.Timer
	hoverTimer *time.Timer
	hoverAt    fyne.Position     // the pointer on the page
	hoverGen   int               // bumped by every pointer move and keystroke
	hoverPop   fyne.CanvasObject // the hover box in e.float, or nil
	comp       *completionPopup
	compGen    int
	compWanted bool              // a completion was asked for and not closed: typing a word refines it
	sigBox     fyne.CanvasObject // the signature hint above the caret, or nil
	sigGen     int

	// onDefinition opens where the identifier at pos is declared;
	// onReferences lists its uses (the window's).
	onDefinition func(path string, pos lsp.Position)
	onReferences func(path string, pos lsp.Position)
	onOutline    func(path string)                                   // Ctrl+Shift+O
	onRename     func(path string, pos lsp.Position, current string) // F2
	// async runs fn off the main goroutine (the window's WaitGroup); do
	// runs fn on the main goroutine (fyne.Do; tests queue it).
	async func(fn func())
	do    func(fn func())
}

// attachIntel links e, the editor of the project file path, to client.
func attachIntel(e *editor, path string, client *lsp.Client) *editorIntel {
	in := &editorIntel{e: e, path: path, client: client, async: func(fn func()) { go fn() }, do: fyne.Do}
	e.intel = in
	in.sendNow()
	return in
}

// caretPos is the caret as gopls's position (1-based, runes).
func (in *editorIntel) caretPos() lsp.Position {
	return lsp.Position{Line: in.e.caret.Line + 1, Col: in.e.caret.Col + 1}
}

// edited schedules sending the text to gopls and closes what the edit
// made stale.
func (in *editorIntel) edited() {
	in.hoverGen++
	in.hideHover()
	if in.syncTimer != nil {
		in.syncTimer.Stop()
	}
	in.syncTimer = time.AfterFunc(syncDelay, func() { in.do(in.sendNow) })
}

// sendNow gives gopls the editor's text (OpenDocument never blocks).
func (in *editorIntel) sendNow() {
	if in.e.intel != in {
		return // detached
	}
	in.client.OpenDocument(in.path, in.e.buf.FileText())
}

// detach stops the timers and tells gopls the editor is gone.
func (in *editorIntel) detach() {
	in.stop()
	in.client.CloseDocument(in.path)
}

// stop unlinks the editor from gopls: no more timers, popups or sends.
func (in *editorIntel) stop() {
	in.hideSignature()
	if in.syncTimer != nil {
		in.syncTimer.Stop()
	}
	if in.hoverTimer != nil {
		in.hoverTimer.Stop()
	}
	in.hideHover()
	in.closeCompletion()
	in.e.intel = nil
}

// setDiagnostics shows ds under their ranges.
func (in *editorIntel) setDiagnostics(ds []lsp.Diagnostic) {
	in.diags = ds
	in.e.invalidate()
}

// diagnosticsStyles are the squiggle (coloured, underlined) and gutter
// mark styles for errors and for the rest.
func diagnosticStyles() (errText, warnText, errMark, warnMark widget.TextGridStyle) {
	errC, warnC := theme.Color(theme.ColorNameError), theme.Color(theme.ColorNameWarning)
	u := fyne.TextStyle{Underline: true}
	return &widget.CustomTextGridStyle{TextStyle: u, FGColor: errC}, &widget.CustomTextGridStyle{TextStyle: u, FGColor: warnC},
		&widget.CustomTextGridStyle{FGColor: errC}, &widget.CustomTextGridStyle{FGColor: warnC}
}

// markDiagnostics restyles the built rows: a diagnostic's range is drawn
// in its colour and underlined, and its first line gets a mark in the
// gutter.
func (e *editor) markDiagnostics(rows []widget.TextGridRow, sp span, gutter int) {
	if e.intel == nil || len(e.intel.diags) == 0 {
		return
	}
	errText, warnText, errMark, warnMark := diagnosticStyles()
	for _, d := range e.intel.diags {
		text, mark := warnText, warnMark
		if d.Severity == "error" {
			text, mark = errText, errMark
		}
		first, last := d.Range.Start.Line-1, d.Range.End.Line-1
		for line := max(first, sp.first); line <= last && line < sp.first+len(rows); line++ {
			row := &rows[line-sp.first]
			if line == first && gutter >= 2 && len(row.Cells) >= gutter {
				row.Cells[gutter-2] = widget.TextGridCell{Rune: '●', Style: mark}
			}
			src := e.buf.Line(line)
			from, to := 0, len([]rune(src))
			if line == first {
				from = d.Range.Start.Col - 1
			}
			if line == last {
				to = d.Range.End.Col - 1
			}
			if to <= from { // an empty range: mark the rune there
				to = from + 1
			}
			for col := from; col < to; col++ {
				cell := textbuf.CellOf(src, col, e.tabWidth) - sp.col + gutter
				if cell >= gutter && cell < len(row.Cells) {
					row.Cells[cell].Style = text
				}
			}
		}
	}
}

// diagnosticsAt are the messages of the diagnostics covering p.
func (in *editorIntel) diagnosticsAt(p textbuf.Pos) []string {
	var out []string
	at := lsp.Position{Line: p.Line + 1, Col: p.Col + 1}
	for _, d := range in.diags {
		if !before(at, d.Range.Start) && (before(at, d.Range.End) || d.Range.Start == d.Range.End && at == d.Range.Start) {
			out = append(out, d.Severity+": "+d.Message+" ("+diagSource(d)+")")
		}
	}
	return out
}

func before(a, b lsp.Position) bool { return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col }

func diagSource(d lsp.Diagnostic) string {
	if d.Source == "" || d.Source == "compiler" {
		return "gopls"
	}
	return "gopls/" + d.Source
}

// The page hears the pointer for hovers.
var _ desktop.Hoverable = (*editorPage)(nil)

// MouseIn starts waiting for the pointer to rest.
func (p *editorPage) MouseIn(ev *desktop.MouseEvent) { p.MouseMoved(ev) }

// MouseMoved restarts the wait for the pointer to rest.
func (p *editorPage) MouseMoved(ev *desktop.MouseEvent) {
	in := p.e.intel
	if in == nil {
		return
	}
	in.hoverGen++
	in.hoverAt = ev.Position
	gen := in.hoverGen
	if in.hoverTimer != nil {
		in.hoverTimer.Stop()
	}
	in.hoverTimer = time.AfterFunc(hoverDelay, func() { in.do(func() { in.hover(gen) }) })
}

// MouseOut hides the hover.
func (p *editorPage) MouseOut() {
	if in := p.e.intel; in != nil {
		in.hoverGen++
		in.hideHover()
	}
}

// hover shows the diagnostics under the resting pointer at once and asks
// gopls about the identifier there.
func (in *editorIntel) hover(gen int) {
	if gen != in.hoverGen || in.e.intel != in {
		return
	}
	e := in.e
	at := e.runeAt(in.hoverAt)
	if at.Col >= e.buf.LineLen(at.Line) {
		return
	}
	msgs := in.diagnosticsAt(at)
	if len(msgs) > 0 {
		in.showHover(strings.Join(msgs, "\n"))
	}
	pos := lsp.Position{Line: at.Line + 1, Col: at.Col + 1}
	in.sendNow()
	in.async(func() {
		ctx, cancel := context.WithTimeout(context.Background(), intelTimeout)
		defer cancel()
		h, err := in.client.Hover(ctx, in.path, pos)
		in.do(func() {
			if gen != in.hoverGen || err != nil || h.Text == "" {
				return
			}
			text := h.Text
			if len(msgs) > 0 {
				text = strings.Join(msgs, "\n") + "\n\n" + text
			}
			in.showHover(text)
		})
	})
}

// showHover shows text in a box under the pointer.
func (in *editorIntel) showHover(text string) {
	in.hideHover()
	if r := []rune(text); len(r) > maxHoverRune {
		text = string(r[:maxHoverRune]) + "…"
	}
	e := in.e
	label := widget.NewLabel(text)
	label.Wrapping = fyne.TextWrapWord
	width := min(max(e.Size().Width*0.7, 200), 640)
	rows := 0
	perRow := max(int(width/max(e.look.cell.Width, 1))-4, 10)
	for _, l := range strings.Split(text, "\n") {
		rows += len([]rune(l))/perRow + 1
	}
	height := min(float32(rows)*e.look.cell.Height*1.45+2*theme.Padding(), 260)
	at := e.pagePos().Add(in.hoverAt).Add(fyne.NewPos(0, e.look.cell.Height))
	in.hoverPop = e.showFloat(container.NewVScroll(label), at, fyne.NewSize(width, height), e.look.cell.Height)
}

func (in *editorIntel) hideHover() {
	if in.hoverPop != nil {
		in.e.hideFloat(in.hoverPop)
		in.hoverPop = nil
	}
}

// pagePos is where the page's top left is, relative to the editor.
func (e *editor) pagePos() fyne.Position {
	d := fyne.CurrentApp().Driver()
	return d.AbsolutePositionForObject(e.page).Subtract(d.AbsolutePositionForObject(e))
}

// showFloat draws obj in a box of size at at (relative to the editor),
// moved above the line (lineHeight) or left when it would leave the
// editor, and returns the box.
func (e *editor) showFloat(obj fyne.CanvasObject, at fyne.Position, size fyne.Size, lineHeight float32) fyne.CanvasObject {
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground))
	bg.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	bg.StrokeWidth = 1
	box := container.NewStack(bg, obj)
	es := e.Size()
	if at.X+size.Width > es.Width {
		at.X = max(es.Width-size.Width, 0)
	}
	if at.Y+size.Height > es.Height && at.Y-lineHeight-size.Height >= 0 {
		at.Y -= lineHeight + size.Height
	}
	box.Move(at)
	box.Resize(size)
	e.float.Add(box)
	e.float.Refresh() // Add alone does not repaint
	return box
}

// hideFloat removes a box showFloat drew.
func (e *editor) hideFloat(box fyne.CanvasObject) {
	e.float.Remove(box)
	e.float.Refresh()
}

// typedKey handles the keys gopls features take: F12 (definition),
// Shift+F12 (references) and, while the completion list is open, the
// keys that move in it, accept or close it. It reports whether it took
// the key.
func (in *editorIntel) typedKey(name fyne.KeyName) bool {
	in.hoverGen++
	in.hideHover()
	switch name {
	case fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter, fyne.KeyUp, fyne.KeyDown, fyne.KeyPageUp, fyne.KeyPageDown:
		if in.comp == nil {
			in.hideSignature()
		}
	}
	if name == fyne.KeyF2 && in.onRename != nil {
		in.sendNow()
		e := in.e
		start, end := textbuf.WordAt(e.buf.Line(e.caret.Line), e.caret.Col)
		if word := []rune(e.buf.Line(e.caret.Line)); end > start {
			in.onRename(in.path, lsp.Position{Line: e.caret.Line + 1, Col: start + 1}, string(word[start:end]))
		}
		return true
	}
	if name == fyne.KeyF12 {
		in.sendNow() // the question is about the text as it is now
		if in.e.shift {
			in.onReferences(in.path, in.caretPos())
		} else {
			in.onDefinition(in.path, in.caretPos())
		}
		return true
	}
	if in.comp == nil {
		if name == fyne.KeyEscape {
			in.closeCompletion() // one asked for and not shown yet
		}
		return false
	}
	switch name {
	case fyne.KeyUp:
		in.comp.move(-1)
	case fyne.KeyDown:
		in.comp.move(1)
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeyTab:
		in.accept()
	case fyne.KeyEscape:
		in.closeCompletion()
	case fyne.KeyLeft, fyne.KeyRight, fyne.KeyHome, fyne.KeyEnd, fyne.KeyPageUp, fyne.KeyPageDown,
		fyne.KeyBackspace, fyne.KeyDelete:
		in.closeCompletion() // the caret leaves the word: the list no longer fits
		return false
	default:
		return false // a printable key: its rune follows, and typedRune refines or closes
	}
	return true
}

// typedRune opens completion after a dot and refines it while a word is
// typed into it.
func (in *editorIntel) typedRune(r rune) {
	switch r {
	case '(', ',':
		in.signature()
	case ')':
		in.hideSignature()
	}
	switch {
	case r == '.' && isGoFile(in.path):
		in.complete()
	case (in.comp != nil || in.compWanted) && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'):
		in.complete()
	default:
		in.closeCompletion()
	}
}

// complete asks gopls for completions at the caret (Ctrl+Space).
func (in *editorIntel) complete() {
	in.compGen++
	in.compWanted = true
	gen, version, caret := in.compGen, in.e.version, in.e.caret
	pos := in.caretPos()
	in.sendNow() // gopls must see the text up to the caret first
	in.async(func() {
		ctx, cancel := context.WithTimeout(context.Background(), intelTimeout)
		defer cancel()
		items, err := in.client.Completions(ctx, in.path, pos)
		in.do(func() {
			if gen != in.compGen || version != in.e.version || caret != in.e.caret || in.e.intel != in {
				return // the person moved on: stale
			}
			if err != nil || len(items) == 0 {
				in.closeCompletion()
				return
			}
			if in.comp == nil && !in.compWanted {
				return
			}
			in.showCompletion(items[:min(len(items), maxCompItems)])
		})
	})
}

// completionPopup is the list of candidates under the caret.
type completionPopup struct {
	items []lsp.Completion
	sel   int
	list  *widget.List
	box   fyne.CanvasObject // in the editor's float layer
}

func (c *completionPopup) move(d int) {
	c.sel = min(max(c.sel+d, 0), len(c.items)-1)
	c.list.Select(c.sel)
	c.list.ScrollTo(c.sel)
}

func (in *editorIntel) showCompletion(items []lsp.Completion) {
	in.closeCompletion()
	e := in.e
	c := &completionPopup{items: items}
	c.list = widget.NewList(func() int { return len(c.items) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.ListItemID, o fyne.CanvasObject) {
			it := c.items[id]
			o.(*widget.Label).SetText(it.Label + "  " + it.Kind + "  " + it.Detail)
		})
	c.list.OnSelected = func(id widget.ListItemID) {
		c.sel = id
		if cv := fyne.CurrentApp().Driver().CanvasForObject(e.page); cv != nil {
			cv.Focus(e.page) // a click in the list must not take the keyboard
		}
	}
	rowH := widget.NewLabel("").MinSize().Height + theme.Padding()
	col := textbuf.CellOf(e.buf.Line(e.caret.Line), e.caret.Col, e.tabWidth)
	x := e.scroll.Offset.X + float32(gutterWidth(e.buf.LineCount())+col-e.shown.col)*e.look.cell.Width
	y := float32(e.caret.Line+1) * e.look.cell.Height
	at := e.pagePos().Add(fyne.NewPos(x, y))
	c.box = e.showFloat(c.list, at, fyne.NewSize(440, min(float32(len(items)), 8)*rowH), e.look.cell.Height)
	c.list.Select(0)
	in.comp = c
}

// accept replaces the word before the caret with the chosen candidate.
func (in *editorIntel) accept() {
	c := in.comp
	in.closeCompletion()
	if c == nil || c.sel < 0 || c.sel >= len(c.items) {
		return
	}
	it := c.items[c.sel]
	e := in.e
	start := textbuf.Pos{Line: it.Replace.Start.Line - 1, Col: it.Replace.Start.Col - 1}
	if start.Line != e.caret.Line || start.Col > e.caret.Col {
		start = e.caret
	}
	e.buf.Seal()
	e.selectRange(textbuf.Range{Start: start, End: e.caret})
	e.replaceSelection(it.Insert)
	e.buf.Seal()
}

func (in *editorIntel) closeCompletion() {
	in.compGen++
	in.compWanted = false
	if in.comp != nil {
		in.e.hideFloat(in.comp.box)
		in.comp = nil
	}
}

// signature shows the signature of the call the caret is in, above it.
func (in *editorIntel) signature() {
	in.sigGen++
	gen, version, caret := in.sigGen, in.e.version, in.e.caret
	pos := in.caretPos()
	in.sendNow()
	in.async(func() {
		ctx, cancel := context.WithTimeout(context.Background(), intelTimeout)
		defer cancel()
		sig, err := in.client.SignatureHelp(ctx, in.path, pos)
		in.do(func() {
			if gen != in.sigGen || version != in.e.version || caret != in.e.caret || in.e.intel != in {
				return
			}
			in.hideSignature()
			if err != nil || sig.Label == "" {
				return
			}
			text := sig.Label
			if sig.Param != "" {
				text += "\n→ " + sig.Param
			}
			e := in.e
			label := widget.NewLabel(text)
			size := label.MinSize().Add(fyne.NewSize(theme.Padding(), 0))
			size.Width = min(size.Width, max(e.Size().Width-8, 100))
			col := textbuf.CellOf(e.buf.Line(e.caret.Line), e.caret.Col, e.tabWidth)
			x := e.scroll.Offset.X + float32(gutterWidth(e.buf.LineCount())+col-e.shown.col)*e.look.cell.Width
			y := float32(e.caret.Line)*e.look.cell.Height - size.Height
			at := e.pagePos().Add(fyne.NewPos(x, y))
			if at.Y < 0 {
				at.Y += size.Height + e.look.cell.Height
			}
			in.sigBox = e.showFloat(label, at, size, e.look.cell.Height)
		})
	})
}

func (in *editorIntel) hideSignature() {
	in.sigGen++
	if in.sigBox != nil {
		in.e.hideFloat(in.sigBox)
		in.sigBox = nil
	}
}

// ctrlClick goes to the definition of the identifier at the pointer.
func (in *editorIntel) ctrlClick(at textbuf.Pos) {
	in.sendNow()
	in.onDefinition(in.path, lsp.Position{Line: at.Line + 1, Col: at.Col + 1})
}
