package editor

// Line commands: the edits that work on whole lines or words (indent,
// outdent, comment, duplicate, move) rather than on the caret's character.

import (
	"strings"

	"trestle/app/textbuf"
)

// selectedLines returns the lines a line command (indent, outdent) works
// on: those of the selection, not counting a last line the selection only
// reaches the start of.
func (e *Editor) selectedLines() (first, last int) {
	sel := e.Selection()
	first, last = sel.Start.Line, sel.End.Line
	if last > first && sel.End.Col == 0 {
		last--
	}
	return first, last
}

// indent puts a tab before every non-empty selected line.
func (e *Editor) indent() {
	e.rewriteLines(func(line string) string {
		if line == "" {
			return line
		}
		return "\t" + line
	})
}

// outdent removes one tab, or up to a tab width of spaces, from the start
// of every selected line.
func (e *Editor) outdent() {
	e.rewriteLines(func(line string) string {
		if strings.HasPrefix(line, "\t") {
			return line[1:]
		}
		n := len(line) - len(strings.TrimLeft(line, " "))
		return line[min(n, e.tabWidth):]
	})
}

// rewriteLines replaces each selected line by fn of it, as one undo step,
// and selects the lines.
func (e *Editor) rewriteLines(fn func(string) string) {
	first, last := e.selectedLines()
	lines := make([]string, 0, last-first+1)
	for i := first; i <= last; i++ {
		lines = append(lines, fn(e.buf.Line(i)))
	}
	r := textbuf.Range{Start: textbuf.Pos{Line: first}, End: textbuf.Pos{Line: last, Col: e.buf.LineLen(last)}}
	if e.buf.Slice(r) == strings.Join(lines, "\n") {
		return
	}
	end := e.buf.Replace(r, strings.Join(lines, "\n"))
	e.edited(end)
	e.anchor = r.Start
	e.invalidate()
}

// wordLeft is where Ctrl+Left goes: the start of the word before the
// caret, or the end of the line above.
func (e *Editor) wordLeft() textbuf.Pos {
	c := e.caret
	if col, ok := textbuf.WordLeft(e.buf.Line(c.Line), c.Col); ok {
		return textbuf.Pos{Line: c.Line, Col: col}
	}
	return e.before(c)
}

// wordRight is where Ctrl+Right goes: the end of the word after the
// caret, or the start of the line below.
func (e *Editor) wordRight() textbuf.Pos {
	c := e.caret
	if col, ok := textbuf.WordRight(e.buf.Line(c.Line), c.Col); ok {
		return textbuf.Pos{Line: c.Line, Col: col}
	}
	return e.after(c)
}

// toggleComment comments the selected lines out with //, or back in
// (textbuf.ToggleComment), as one undo step; in a file that is not Go it
// does nothing.
func (e *Editor) toggleComment() {
	if e.hl == nil {
		return
	}
	first, last := e.selectedLines()
	lines := make([]string, 0, last-first+1)
	for i := first; i <= last; i++ {
		lines = append(lines, e.buf.Line(i))
	}
	caret, anchor := e.caret, e.anchor
	out := textbuf.ToggleComment(lines, "//")
	r := textbuf.Range{Start: textbuf.Pos{Line: first}, End: textbuf.Pos{Line: last, Col: e.buf.LineLen(last)}}
	e.buf.Seal()
	e.buf.Replace(r, strings.Join(out, "\n"))
	e.buf.Seal()
	shift := func(p textbuf.Pos) textbuf.Pos { // keep the caret on its text
		if p.Line >= first && p.Line <= last {
			p.Col = max(p.Col+len([]rune(out[p.Line-first]))-len([]rune(lines[p.Line-first])), 0)
		}
		return p
	}
	e.edited(shift(caret))
	e.anchor = e.buf.Clamp(shift(anchor))
	e.invalidate()
}

// duplicateLines puts a copy of the selected lines below them, the
// selection moving onto the copy.
func (e *Editor) duplicateLines() {
	first, last := e.selectedLines()
	text := e.buf.Lines(first, last)
	n := last - first + 1
	caret, anchor := e.caret, e.anchor
	e.buf.Seal()
	e.buf.Insert(textbuf.Pos{Line: last, Col: e.buf.LineLen(last)}, "\n"+text)
	e.buf.Seal()
	caret.Line += n
	anchor.Line += n
	e.edited(caret)
	e.anchor = anchor
	e.invalidate()
}

// moveLines moves the selected lines one line up (dir -1) or down (dir 1),
// the selection with them.
func (e *Editor) moveLines(dir int) {
	first, last := e.selectedLines()
	if first+dir < 0 || last+dir >= e.buf.LineCount() {
		return
	}
	text := e.buf.Lines(first, last)
	caret, anchor := e.caret, e.anchor
	e.buf.Seal()
	if dir < 0 { // the line above goes below the block
		above := e.buf.Line(first - 1)
		r := textbuf.Range{Start: textbuf.Pos{Line: first - 1}, End: textbuf.Pos{Line: last, Col: e.buf.LineLen(last)}}
		e.buf.Replace(r, text+"\n"+above)
	} else {
		below := e.buf.Line(last + 1)
		r := textbuf.Range{Start: textbuf.Pos{Line: first}, End: textbuf.Pos{Line: last + 1, Col: e.buf.LineLen(last + 1)}}
		e.buf.Replace(r, below+"\n"+text)
	}
	e.buf.Seal()
	caret.Line += dir
	anchor.Line += dir
	e.edited(caret)
	e.anchor = anchor
	e.invalidate()
}
