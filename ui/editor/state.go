package editor

import (
	"strings"
	"unicode/utf8"

	"trestle/app/gitstatus"
	"trestle/app/textbuf"
)

// What the host reads and sets of an editor besides the editing commands
// in editor.go. Like every method of Editor, these must be called on the
// main goroutine.

// Buffer returns the text being edited. Edit it through the editor's
// methods (ReplaceAll, ReplaceEach, SelectRange and typing), which keep
// the view, the caret and the highlighting in step; reading it directly is
// fine.
func (e *Editor) Buffer() *textbuf.Buffer { return e.buf }

// Caret returns the caret's position (0-based line and rune column).
func (e *Editor) Caret() textbuf.Pos { return e.caret }

// SetCaret puts the caret at p (clamped), collapsing the selection, and
// scrolls it into view.
func (e *Editor) SetCaret(p textbuf.Pos) { e.setCaret(p, false) }

// VisibleLines returns the first line in view and how many lines the
// view holds (0-based; the rows drawn at the last layout).
func (e *Editor) VisibleLines() (first, count int) { return e.shown.first, e.shown.count }

// Version counts the edits and reloads of the text: an answer computed
// for one version is stale once it changed.
func (e *Editor) Version() int { return e.version }

// DiskHash returns the sha256 of the file as this editor last read or
// wrote it, so that a watcher event for its own save can be told apart.
func (e *Editor) DiskHash() [32]byte { return e.diskHash }

// SetDiskHash records h as the hash of the file on disk (a save starting,
// failing, or the person keeping their text over a change on disk).
func (e *Editor) SetDiskHash(h [32]byte) { e.diskHash = h }

// CentreCaret scrolls the caret's line a third of the way down the view,
// unless it is in view already.
func (e *Editor) CentreCaret() { e.centreLine(e.caret.Line) }

// TabWidth returns how many cells a tab shows as.
func (e *Editor) TabWidth() int { return e.tabWidth }

// GitMarks returns the lines (0-based) the gutter marks as changed
// against git's HEAD (SetGitMarks).
func (e *Editor) GitMarks() map[int]gitstatus.Change { return e.gitMarks }

// Page returns the surface that takes the keyboard and the mouse: the
// object to focus, type into or send a shortcut to.
func (e *Editor) Page() *Page { return e.page }

// ReplaceEach replaces each of ranges (ordered, not overlapping) with the
// text at the same index, as one undo step, and returns how many it
// replaced. The caret stays where it was, clamped.
func (e *Editor) ReplaceEach(ranges []textbuf.Range, texts []string) int {
	n := e.buf.ReplaceEach(ranges, texts)
	if n > 0 {
		e.edited(e.buf.Clamp(e.caret))
	}
	return n
}

// ReplaceAll makes the text text as one undoable edit of the span that
// differs, so the view and the caret's line stay where they were (a
// format, a rename).
func (e *Editor) ReplaceAll(text string) {
	caret := e.caret
	cur, want := e.buf.Text(), strings.ReplaceAll(text, "\r\n", "\n")
	if cur == want {
		return
	}
	p := 0
	for p < len(cur) && p < len(want) && cur[p] == want[p] {
		p++
	}
	for p > 0 && !utf8.RuneStart(cur[p]) {
		p--
	}
	q := 0 // bytes equal at the end, not overlapping the prefix
	for q < len(cur)-p && q < len(want)-p && cur[len(cur)-1-q] == want[len(want)-1-q] {
		q++
	}
	for q > 0 && !utf8.RuneStart(cur[len(cur)-q]) {
		q--
	}
	e.buf.Seal()
	e.SelectRange(textbuf.Range{Start: posOfOffset(cur, p), End: posOfOffset(cur, len(cur)-q)})
	e.replaceSelection(want[p : len(want)-q])
	e.buf.Seal()
	e.setCaret(caret, false)
}

// posOfOffset is the position of byte offset off in text.
func posOfOffset(text string, off int) textbuf.Pos {
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndexByte(text[:off], '\n') + 1
	return textbuf.Pos{Line: line, Col: utf8.RuneCountInString(text[start:off])}
}

// ShowBanner shows msg in a strip over the text with a button for each
// action (the first one highlighted); any button hides the strip before
// its action runs.
func (e *Editor) ShowBanner(msg string, actions ...BannerAction) { e.banner.show(msg, actions...) }

// HideBanner hides the strip ShowBanner showed.
func (e *Editor) HideBanner() { e.banner.hide() }

// Banner returns the strip's message, or "" when it is hidden.
func (e *Editor) Banner() string { return e.banner.shown() }
