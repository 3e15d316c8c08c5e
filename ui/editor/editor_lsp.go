package editor

import (
	"context"
	"strings"
	"time"

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
	e      *Editor
	path   string
	client *lsp.Client
	diags  []lsp.Diagnostic // raw moved onto the text as it is now
	raw    []lsp.Diagnostic // as gopls gave them, on the text rawKey names
	rawKey uint64

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

	host Host
}

// Host is what an editor linked to gopls asks of the program around it
// (the window): where to go, what to list, and how to run work off and
// back on the main goroutine. Its methods are called on the main
// goroutine, except Go's fn and Do, which may be called from any.
type Host interface {
	// Definition opens where the identifier at pos of path is declared (F12, Ctrl+click).
	Definition(path string, pos lsp.Position)
	// References lists the uses of the identifier at pos of path (Shift+F12).
	References(path string, pos lsp.Position)
	// Outline lists the declarations of path (Ctrl+Shift+O).
	Outline(path string)
	// Rename asks for a new name for current, the identifier at pos (F2).
	Rename(path string, pos lsp.Position, current string)
	// Go runs fn off the main goroutine, under an owner that waits for it.
	Go(fn func())
	// Do runs fn on the main goroutine (fyne.Do), or drops it once the
	// host has closed.
	Do(fn func())
}

// AttachIntel links the editor, showing the project file path, to
// client: its text goes to gopls as it is typed, and diagnostics, hover,
// completion, signature help and the navigation keys work; host answers
// what the editor cannot do itself. A link made before is stopped first
// (without closing the document: the new link speaks for the file).
func (e *Editor) AttachIntel(path string, client *lsp.Client, host Host) {
	if e.intel != nil {
		e.intel.stop()
	}
	in := &editorIntel{e: e, path: path, client: client, host: host}
	e.intel = in
	in.sendNow()
}

// HasIntel reports whether the editor is linked to gopls.
func (e *Editor) HasIntel() bool { return e.intel != nil }

// DetachIntel unlinks the editor from gopls and closes its document
// there (the tab closed).
func (e *Editor) DetachIntel() {
	if e.intel != nil {
		e.intel.detach()
	}
}

// StopIntel unlinks the editor from gopls, leaving the document open (a
// new editor of the same file took over).
func (e *Editor) StopIntel() {
	if e.intel != nil {
		e.intel.stop()
	}
}

// SyncIntel gives gopls the editor's text now, if it changed since it was
// last sent (before a question about the text as it is), without joining
// it on the main goroutine; without a link to gopls it does nothing. Main
// goroutine only.
func (e *Editor) SyncIntel() {
	if e.intel != nil {
		e.intel.sendNow()
	}
}

// SetDiagnostics shows ds (gopls's diagnostics of the editor's file)
// under their ranges; without a link to gopls it does nothing. Ranges
// computed on an older text (Diagnostic.Key) are moved through the edits
// made since; a Key of 0 stands for the text as it is now.
func (e *Editor) SetDiagnostics(ds []lsp.Diagnostic) {
	if e.intel != nil {
		e.intel.setDiagnostics(ds)
	}
}

// Diagnostics returns the diagnostics the editor shows.
func (e *Editor) Diagnostics() []lsp.Diagnostic {
	if e.intel == nil {
		return nil
	}
	return e.intel.diags
}

// caretPos is the caret as gopls's position (1-based, runes).
func (in *editorIntel) caretPos() lsp.Position {
	return lsp.Position{Line: in.e.caret.Line + 1, Col: in.e.caret.Col + 1}
}

// edited schedules sending the text to gopls and closes what the edit
// made stale.
func (in *editorIntel) edited() {
	if len(in.raw) > 0 {
		in.follow()
	}
	in.hoverGen++
	in.hideHover()
	if in.syncTimer != nil {
		in.syncTimer.Stop()
	}
	in.syncTimer = time.AfterFunc(syncDelay, func() { in.host.Do(in.sendNow) })
}

// sendNow gives gopls the editor's text, if it does not hold it already:
// a snapshot of the buffer (a pointer per chunk of lines), joined off the
// main goroutine when gopls is sent it (OpenDocumentLazy never blocks).
func (in *editorIntel) sendNow() {
	if in.e.intel != in {
		return // detached
	}
	v := in.e.buf.Version()
	if in.client.Holds(in.path, v) {
		return
	}
	snap := in.e.buf.Snapshot()
	in.client.OpenDocumentLazy(in.path, v, snap.FileText)
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
	in.raw, in.rawKey = ds, in.e.buf.Version()
	if len(ds) > 0 && ds[0].Key != 0 {
		in.rawKey = ds[0].Key // one publication: one text
	}
	in.follow()
}

// follow moves the diagnostics onto the text as it is now.
func (in *editorIntel) follow() {
	in.diags = in.e.changes.mapDiagnostics(in.raw, in.rawKey)
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
func (e *Editor) markDiagnostics(rows []widget.TextGridRow, sp span, gutter int) {
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
			out = append(out, d.Severity+": "+d.Message+" ("+DiagnosticSource(d)+")")
		}
	}
	return out
}

func before(a, b lsp.Position) bool { return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col }

func DiagnosticSource(d lsp.Diagnostic) string {
	if d.Source == "" || d.Source == "compiler" {
		return "gopls"
	}
	return "gopls/" + d.Source
}

// The page hears the pointer for hovers.
var _ desktop.Hoverable = (*Page)(nil)

// MouseIn starts waiting for the pointer to rest.
func (p *Page) MouseIn(ev *desktop.MouseEvent) { p.MouseMoved(ev) }

// MouseMoved restarts the wait for the pointer to rest.
func (p *Page) MouseMoved(ev *desktop.MouseEvent) {
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
	in.hoverTimer = time.AfterFunc(hoverDelay, func() { in.host.Do(func() { in.hover(gen) }) })
}

// MouseOut hides the hover.
func (p *Page) MouseOut() {
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
	if !e.inView(in.hoverAt) {
		return // the box belongs over the text the pointer rests on, never over what is around the editor
	}
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
	in.host.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), intelTimeout)
		defer cancel()
		h, err := in.client.Hover(ctx, in.path, pos)
		in.host.Do(func() {
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

// inView reports whether p, a position on the page, is in the view.
func (e *Editor) inView(p fyne.Position) bool {
	off, size := e.scroll.Offset, e.scroll.Size()
	return p.X >= off.X && p.Y >= off.Y && p.X < off.X+size.Width && p.Y < off.Y+size.Height
}

// pagePos is where the page's top left is, relative to the editor.
func (e *Editor) pagePos() fyne.Position {
	d := fyne.CurrentApp().Driver()
	return d.AbsolutePositionForObject(e.page).Subtract(d.AbsolutePositionForObject(e))
}

// showFloat draws obj in a box of size at at (relative to the editor),
// moved above the line (lineHeight) or left when it would leave the
// editor, and cut to the editor's height when it fits on neither side,
// and returns the box.
func (e *Editor) showFloat(obj fyne.CanvasObject, at fyne.Position, size fyne.Size, lineHeight float32) fyne.CanvasObject {
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground))
	bg.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	bg.StrokeWidth = 1
	box := container.NewStack(bg, obj)
	es := e.Size()
	size.Width = min(size.Width, es.Width) // never wider than the editor: it would cover what is beside it
	if at.X+size.Width > es.Width {
		at.X = max(es.Width-size.Width, 0)
	}
	if below, above := es.Height-at.Y, at.Y-lineHeight; size.Height > below {
		switch { // below the line if it fits, else above it, else cut to the larger side (the lists scroll)
		case size.Height <= above:
			at.Y = above - size.Height
		case above > below:
			size.Height = above
			at.Y = 0
		default:
			size.Height = max(below, lineHeight)
		}
	}
	box.Move(at)
	box.Resize(size)
	e.float.Add(box)
	e.float.Refresh() // Add alone does not repaint
	return box
}

// hideFloat removes a box showFloat drew.
func (e *Editor) hideFloat(box fyne.CanvasObject) {
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
	if name == fyne.KeyF2 {
		in.sendNow()
		e := in.e
		start, end := textbuf.WordAt(e.buf.Line(e.caret.Line), e.caret.Col)
		if word := []rune(e.buf.Line(e.caret.Line)); end > start {
			in.host.Rename(in.path, lsp.Position{Line: e.caret.Line + 1, Col: start + 1}, string(word[start:end]))
		}
		return true
	}
	if name == fyne.KeyF12 {
		in.sendNow() // the question is about the text as it is now
		if in.e.shift {
			in.host.References(in.path, in.caretPos())
		} else {
			in.host.Definition(in.path, in.caretPos())
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

// ctrlClick goes to the definition of the identifier at the pointer.
func (in *editorIntel) ctrlClick(at textbuf.Pos) {
	in.sendNow()
	in.host.Definition(in.path, lsp.Position{Line: at.Line + 1, Col: at.Col + 1})
}
