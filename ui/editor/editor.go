package editor

import (
	"path"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"trestle/app/gitstatus"
	"trestle/app/textbuf"
)

// Editor is a code editor for one file. The page inside its Scroll is as
// large as the whole text, but its TextGrid holds only the rows and
// columns in view, so a file of 100k lines costs no more than a screenful
// to draw; a keystroke changes one line of the buffer, re-highlights the
// lines it touched and rebuilds the visible rows. The text model (buffer,
// undo, highlighting, find) is app/textbuf; this file holds the editing
// commands, editor_input.go the keyboard and mouse, editor_render.go the
// drawing and editor_find.go the find and go-to-line bars. Like every
// widget it must be used on the main goroutine.
type Editor struct {
	widget.BaseWidget

	buf      *textbuf.Buffer
	hl       *textbuf.Highlighter // nil: not Go source
	caret    textbuf.Pos
	anchor   textbuf.Pos // the other end of the selection; == caret for none
	wantCell int         // the display column Up and Down aim for; -1 for the caret's
	lastCell int         // the display column the last Up or Down aimed for
	tabWidth int
	maxCells int // display cells in the widest line seen; only grows
	version  int // counts edits and reloads, for the find bar
	// gitMarks are the lines changed against git's HEAD, for the gutter.
	gitMarks map[int]gitstatus.Change
	// brackets caches matchingBrackets for a text version and caret.
	brackets struct {
		valid   bool
		version int
		caret   textbuf.Pos
		at      []textbuf.Pos
	}
	// diskHash is the sha256 of the file as this editor last read or
	// wrote it, so that a watcher event for our own save is ignored.
	diskHash [32]byte

	page    *Page
	wheel   *wheel // over the view on the page, it takes the mouse wheel
	scroll  *container.Scroll
	grid    *widget.TextGrid
	cursor  *canvas.Rectangle
	bars    *editorBars
	banner  *editorBanner
	content *fyne.Container

	look     editorLook
	shown    span // what grid holds now
	stale    bool // the grid's rows no longer match the text, caret or selection
	pending  bool // bring the caret into view at the next layout
	centre   bool // bring it a third down the view, not just inside it (a jump)
	shift    bool // a Shift key is down
	pressed  bool // MouseDown placed the caret; the Tapped that follows is ignored
	modified bool // the buffer's Modified at the last OnModified

	OnModified func()              // after an edit changed whether the text is modified
	OnCaret    func(line, col int) // after the caret moved; 1-based
	OnEdit     func()              // after the text changed
	OnSave     func()              // Ctrl+S
	OnEval     func(code string)   // Ctrl+Enter, with the code to evaluate

	intel *editorIntel // gopls's diagnostics, hover, completion (editor_lsp.go); nil without
	// changes are the recent edits, for diagnostics on an older text (editor_changes.go).
	changes changeLog
	// float holds the hover and completion boxes over the text: inside the
	// widget, not canvas overlays, which would take the keyboard.
	float *fyne.Container
}

// New returns an editor on buf, highlighted with hl (nil: not Go source),
// with nothing selected and the caret at the start. Main goroutine only.
func New(buf *textbuf.Buffer, hl *textbuf.Highlighter) *Editor {
	e := &Editor{buf: buf, hl: hl, wantCell: -1, tabWidth: textbuf.DefaultTabWidth, stale: true}
	e.grid = widget.NewTextGrid()
	e.cursor = canvas.NewRectangle(nil)
	e.page = newEditorPage(e)
	e.wheel = newWheel(e)
	e.scroll = container.NewScroll(e.page)
	e.scroll.OnScrolled = func(fyne.Position) { e.place() }
	e.bars = newEditorBars(e)
	e.banner = newEditorBanner(func() { e.content.Refresh() })
	e.content = container.NewBorder(container.NewVBox(e.banner.box, e.bars.box), nil, nil, nil, e.scroll)
	e.float = container.NewWithoutLayout()
	e.maxCells = e.measureAll()
	e.followEdits()
	e.ExtendBaseWidget(e)
	return e
}

// followEdits keeps the highlighting in step with every edit of the
// buffer, and logs the edits for positions gopls computed on an older
// text (editor_changes.go).
func (e *Editor) followEdits() {
	buf, hl := e.buf, e.hl
	buf.Renumber() // gopls's client keeps the newest text of a file: this one is newer than any before it
	e.changes.reset(buf.Version())
	buf.OnChange = func(c textbuf.Change) {
		if hl != nil {
			hl.Apply(c, buf.LineCount(), buf.Line)
		}
		e.changes.add(buf.Version(), c)
	}
}

// SetText replaces the text with buf, highlighted with hl (nil for none),
// as read from disk with the given hash: the editor is unmodified, the
// undo history starts again and the caret stays on its line where the new
// text has one. Main goroutine only.
func (e *Editor) SetText(buf *textbuf.Buffer, hl *textbuf.Highlighter, hash [32]byte) {
	e.buf, e.hl, e.diskHash = buf, hl, hash
	e.followEdits()
	e.maxCells = e.measureAll()
	e.banner.hide()
	e.buf.Seal()
	e.edited(e.caret)
}

// IsGoFile reports whether name is highlighted as Go source.
func IsGoFile(name string) bool { return path.Ext(name) == ".go" }

// measureAll returns the display width of the widest line.
func (e *Editor) measureAll() int {
	widest := 0
	for i := range e.buf.LineCount() {
		widest = max(widest, textbuf.Cells(e.buf.Line(i), e.tabWidth))
	}
	return widest
}

// SetTabWidth shows tabs at n cells (n < 1: the default).
func (e *Editor) SetTabWidth(n int) {
	if n < 1 {
		n = textbuf.DefaultTabWidth
	}
	if n == e.tabWidth {
		return
	}
	e.tabWidth = n
	e.maxCells = e.measureAll()
	e.invalidate()
}

// Selection returns the selected range, ordered; empty when none.
func (e *Editor) Selection() textbuf.Range {
	return textbuf.Range{Start: e.anchor, End: e.caret}.Ordered()
}

// SelectedText returns the selected text with LF line endings.
func (e *Editor) SelectedText() string {
	return e.buf.Slice(e.Selection())
}

// moveTo puts the caret at p (clamped), extending the selection when
// extend is set and collapsing it otherwise. A move ends the typing run.
func (e *Editor) moveTo(p textbuf.Pos, extend bool) {
	e.buf.Seal()
	e.setCaret(p, extend)
}

// setCaret puts the caret at p without ending the typing run.
func (e *Editor) setCaret(p textbuf.Pos, extend bool) {
	p = e.buf.Clamp(p)
	old := e.Selection()
	oldCaret := e.caret
	e.caret = p
	if !extend {
		e.anchor = p
	}
	if e.caret == oldCaret && e.Selection() == old {
		return
	}
	e.wantCell = -1
	e.invalidate()
	e.revealCaret()
	e.caretMoved()
}

// SelectRange selects r, the caret at its end.
func (e *Editor) SelectRange(r textbuf.Range) {
	e.moveTo(r.Start, false)
	e.moveTo(r.End, true)
}

// replaceSelection replaces the selection (or inserts at the caret) with s
// and puts the caret after it.
func (e *Editor) replaceSelection(s string) {
	end := e.buf.Replace(e.Selection(), s)
	e.edited(end)
}

// edited updates everything that follows a change to the text: the page
// size, the rows, the caret (going to p, the selection collapsed) and the
// modified flag.
func (e *Editor) edited(p textbuf.Pos) {
	e.version++
	p = e.buf.Clamp(p)
	e.maxCells = max(e.maxCells, textbuf.Cells(e.buf.Line(p.Line), e.tabWidth))
	e.caret, e.anchor, e.wantCell = p, p, -1
	e.stale = true
	e.scroll.Refresh() // resizes the page when the text grew or shrank, and redraws it
	e.revealCaret()
	e.caretMoved()
	e.checkModified()
	if e.intel != nil {
		e.intel.edited()
	}
	if e.OnEdit != nil {
		e.OnEdit()
	}
}

// checkModified tells OnModified when the modified flag changed.
func (e *Editor) checkModified() {
	if m := e.buf.Modified(); m != e.modified {
		e.modified = m
		if e.OnModified != nil {
			e.OnModified()
		}
	}
}

// caretMoved tells OnCaret where the caret is.
func (e *Editor) caretMoved() {
	if e.OnCaret != nil {
		e.OnCaret(e.caret.Line+1, e.caret.Col+1)
	}
}

// typeText replaces the selection with s, as typing does.
func (e *Editor) typeText(s string) {
	e.replaceSelection(s)
}

// typeRune types r as a code editor does: brackets and quotes pair and
// step over their closers, a } first on a line outdents it
// (textbuf.TypeRune).
func (e *Editor) typeRune(r rune) {
	e.apply(e.buf.TypeRune(e.Selection(), r))
}

// newline is Enter: a line break indented as the line before, one step
// deeper after an opening bracket or a case label (textbuf.Newline).
func (e *Editor) newline() {
	e.apply(e.buf.Newline(e.Selection()))
}

// apply makes a typed edit, or only moves the caret when it changes no
// text, as part of the typing run (textbuf.Buffer.Type: one undo step).
func (e *Editor) apply(t textbuf.Typed) {
	e.buf.Type(t)
	if t.Text == "" && t.Replace.Empty() {
		e.setCaret(t.Caret, false)
		return
	}
	e.edited(t.Caret)
}

// backspace deletes the selection, or the rune before the caret (joining
// lines at a line's start).
func (e *Editor) backspace() {
	sel := e.Selection()
	if pair, ok := e.buf.PairAround(e.caret); ok && sel.Empty() {
		sel = pair // "(|)": both go
	} else if sel.Empty() {
		sel.Start = e.before(e.caret)
	}
	e.deleteRange(sel)
}

// deleteForward deletes the selection, or the rune after the caret.
func (e *Editor) deleteForward() {
	sel := e.Selection()
	if sel.Empty() {
		sel.End = e.after(e.caret)
	}
	e.deleteRange(sel)
}

func (e *Editor) deleteRange(r textbuf.Range) {
	if r.Empty() {
		return
	}
	e.buf.Delete(r)
	e.edited(r.Start)
}

// before returns the position one rune before p, across line breaks.
func (e *Editor) before(p textbuf.Pos) textbuf.Pos {
	switch {
	case p.Col > 0:
		return textbuf.Pos{Line: p.Line, Col: p.Col - 1}
	case p.Line > 0:
		return textbuf.Pos{Line: p.Line - 1, Col: e.buf.LineLen(p.Line - 1)}
	}
	return p
}

// after returns the position one rune after p, across line breaks.
func (e *Editor) after(p textbuf.Pos) textbuf.Pos {
	switch {
	case p.Col < e.buf.LineLen(p.Line):
		return textbuf.Pos{Line: p.Line, Col: p.Col + 1}
	case p.Line < e.buf.LineCount()-1:
		return textbuf.Pos{Line: p.Line + 1}
	}
	return p
}

// Undo takes back the last group of edits.
func (e *Editor) Undo() {
	if p, ok := e.buf.Undo(); ok {
		e.edited(p)
	}
}

// Redo makes the last undone group of edits again.
func (e *Editor) Redo() {
	if p, ok := e.buf.Redo(); ok {
		e.edited(p)
	}
}

// ShowLine puts the caret at the start of line (1-based, clamped) and
// scrolls it into view, now or at the first layout.
func (e *Editor) ShowLine(line int) {
	line = min(max(line, 1), e.buf.LineCount())
	e.centre = true
	e.moveTo(textbuf.Pos{Line: line - 1}, false)
	e.revealCaret()
}

// Snapshot returns the text as it is saved and the state that marks it
// saved when the write succeeds (see savedAt). It ends the typing run, so
// typing during the write is a change.
func (e *Editor) Snapshot() (text string, state int) {
	return e.buf.FileText(), e.buf.SaveState()
}

// SavedAt records that the text of state was written, and tells OnModified
// when that changed the modified flag.
func (e *Editor) SavedAt(state int) {
	e.buf.MarkSavedAt(state)
	e.checkModified()
}

// matchingBrackets is the bracket at (or just before) the caret and its
// partner, skipping brackets in strings and comments, or nil; computed
// once per text version and caret position.
func (e *Editor) matchingBrackets() []textbuf.Pos {
	if !e.Selection().Empty() {
		return nil
	}
	c := &e.brackets
	if c.valid && c.version == e.version && c.caret == e.caret {
		return c.at
	}
	c.valid, c.version, c.caret, c.at = true, e.version, e.caret, nil
	if at, partner, ok := e.buf.MatchBracket(e.caret, e.inCode); ok {
		c.at = []textbuf.Pos{at, partner}
	}
	return c.at
}

// inCode reports whether the rune at line, col (0-based) is code: not in
// a string or a comment as the highlighter sees it (all of a file that is
// not Go is code).
func (e *Editor) inCode(line, col int) bool {
	if e.hl == nil {
		return true
	}
	for _, sp := range e.hl.Spans(line) {
		if int(sp.Start) <= col && col < int(sp.End) {
			return sp.Kind != textbuf.String && sp.Kind != textbuf.Comment
		}
	}
	return true
}

// SetGitMarks shows lines changed against git's HEAD in the gutter.
func (e *Editor) SetGitMarks(m map[int]gitstatus.Change) {
	e.gitMarks = m
	e.invalidate()
}

// invalidate marks the rows stale and redraws them.
func (e *Editor) invalidate() {
	e.stale = true
	e.page.Refresh()
}
