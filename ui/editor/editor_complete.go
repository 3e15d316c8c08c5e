package editor

import (
	"context"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/lsp"
	"trestle/app/textbuf"
)

// Completion and signature help: the list under the caret after a dot or
// Ctrl+Space, refined while a word is typed, and the signature of the
// call the caret is in, above it. Main goroutine only, like editor_lsp.go.
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
	case r == '.' && IsGoFile(in.path) && in.e.inCode(in.e.caret.Line, in.e.caret.Col-1):
		in.complete() // not in a comment or a string, where Enter must stay a line break
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
	in.host.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), intelTimeout)
		defer cancel()
		items, err := in.client.Completions(ctx, in.path, pos)
		in.host.Do(func() {
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
	e.SelectRange(textbuf.Range{Start: start, End: e.caret})
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
	in.host.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), intelTimeout)
		defer cancel()
		sig, err := in.client.SignatureHelp(ctx, in.path, pos)
		in.host.Do(func() {
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
