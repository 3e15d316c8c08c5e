package editor

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/textbuf"
)

func numberedText(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// newTestEditor shows an editor on text in a 600x400 test window, focused.
func newTestEditor(t *testing.T, text string, goSource bool) *Editor {
	t.Helper()
	test.NewTempApp(t)
	buf := textbuf.New(text)
	var hl *textbuf.Highlighter
	if goSource {
		hl = textbuf.NewHighlighter(buf.LineCount(), buf.Line)
	}
	e := New(buf, hl)
	w := test.NewTempWindow(t, e)
	w.Resize(fyne.NewSize(600, 400))
	w.Canvas().Focus(e.page)
	return e
}

func key(e *Editor, names ...fyne.KeyName) {
	for _, n := range names {
		e.page.TypedKey(&fyne.KeyEvent{Name: n})
	}
}

func shiftKey(e *Editor, names ...fyne.KeyName) {
	e.page.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	key(e, names...)
	e.page.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
}

func ctrl(e *Editor, name fyne.KeyName, shift bool) {
	mod := fyne.KeyModifierShortcutDefault
	if shift {
		mod |= fyne.KeyModifierShift
	}
	e.page.TypedShortcut(&desktop.CustomShortcut{KeyName: name, Modifier: mod})
}

// gridLines returns the rows the editor's grid holds now, trimmed.
func gridLines(e *Editor) []string {
	var lines []string
	for _, r := range e.grid.Rows {
		lines = append(lines, strings.TrimSpace(rowText(r)))
	}
	return lines
}

func TestEditorTyping(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		at    textbuf.Pos
		do    func(e *Editor)
		want  string
		caret textbuf.Pos
	}{
		{name: "type", text: "ac", at: textbuf.Pos{Col: 1}, do: func(e *Editor) { test.Type(e.page, "b") }, want: "abc", caret: textbuf.Pos{Col: 2}},
		{name: "auto-indent", text: "\tif x {", at: textbuf.Pos{Col: 7}, do: func(e *Editor) { key(e, fyne.KeyReturn); test.Type(e.page, "y") }, want: "\tif x {\n\t\ty", caret: textbuf.Pos{Line: 1, Col: 3}},
		{name: "keep indent", text: "\tx := 1", at: textbuf.Pos{Col: 8}, do: func(e *Editor) { key(e, fyne.KeyReturn); test.Type(e.page, "y") }, want: "\tx := 1\n\ty", caret: textbuf.Pos{Line: 1, Col: 2}},
		{name: "brackets pair and step over", text: "", at: textbuf.Pos{}, do: func(e *Editor) { test.Type(e.page, "f(x)") }, want: "f(x)", caret: textbuf.Pos{Col: 4}},
		{name: "enter between braces", text: "func f() ", at: textbuf.Pos{Col: 9}, do: func(e *Editor) { test.Type(e.page, "{"); key(e, fyne.KeyReturn); test.Type(e.page, "x") }, want: "func f() {\n\tx\n}", caret: textbuf.Pos{Line: 1, Col: 2}},
		{name: "backspace deletes an empty pair", text: "", at: textbuf.Pos{}, do: func(e *Editor) { test.Type(e.page, "(\""); key(e, fyne.KeyBackspace); key(e, fyne.KeyBackspace) }, want: "", caret: textbuf.Pos{}},
		{name: "backspace joins lines", text: "a\nb", at: textbuf.Pos{Line: 1}, do: func(e *Editor) { key(e, fyne.KeyBackspace) }, want: "ab", caret: textbuf.Pos{Col: 1}},
		{name: "delete", text: "abc", at: textbuf.Pos{Col: 1}, do: func(e *Editor) { key(e, fyne.KeyDelete) }, want: "ac", caret: textbuf.Pos{Col: 1}},
		{name: "backspace one rune of many bytes", text: "a世🙂", at: textbuf.Pos{Col: 3}, do: func(e *Editor) { key(e, fyne.KeyBackspace) }, want: "a世", caret: textbuf.Pos{Col: 2}},
		{name: "combining mark", text: "e", at: textbuf.Pos{Col: 1}, do: func(e *Editor) { test.Type(e.page, "\u0301x") }, want: "e\u0301x", caret: textbuf.Pos{Col: 3}},
		{name: "type over selection", text: "hello world", at: textbuf.Pos{Col: 6}, do: func(e *Editor) { shiftKey(e, fyne.KeyEnd); test.Type(e.page, "you") }, want: "hello you", caret: textbuf.Pos{Col: 9}},
		{name: "tab", text: "x", at: textbuf.Pos{}, do: func(e *Editor) { key(e, fyne.KeyTab) }, want: "\tx", caret: textbuf.Pos{Col: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEditor(t, tt.text, false)
			e.moveTo(tt.at, false)
			tt.do(e)
			if got := e.buf.Text(); got != tt.want {
				t.Errorf("text = %q, want %q", got, tt.want)
			}
			if e.caret != tt.caret {
				t.Errorf("caret = %v, want %v", e.caret, tt.caret)
			}
		})
	}
}

func TestEditorMoves(t *testing.T) {
	text := "  first\nsecond line\nx\nthird line long\n" + numberedText(199)
	tests := []struct {
		name string
		at   textbuf.Pos
		do   func(e *Editor)
		want textbuf.Pos
	}{
		{name: "home to indent", at: textbuf.Pos{Col: 5}, do: func(e *Editor) { key(e, fyne.KeyHome) }, want: textbuf.Pos{Col: 2}},
		{name: "home twice", at: textbuf.Pos{Col: 5}, do: func(e *Editor) { key(e, fyne.KeyHome, fyne.KeyHome) }, want: textbuf.Pos{}},
		{name: "end", at: textbuf.Pos{Line: 1}, do: func(e *Editor) { key(e, fyne.KeyEnd) }, want: textbuf.Pos{Line: 1, Col: 11}},
		{name: "right wraps", at: textbuf.Pos{Col: 7}, do: func(e *Editor) { key(e, fyne.KeyRight) }, want: textbuf.Pos{Line: 1}},
		{name: "down keeps column", at: textbuf.Pos{Line: 1, Col: 8}, do: func(e *Editor) { key(e, fyne.KeyDown, fyne.KeyDown) }, want: textbuf.Pos{Line: 3, Col: 8}},
		{name: "ctrl end", at: textbuf.Pos{}, do: func(e *Editor) { ctrl(e, fyne.KeyEnd, false) }, want: textbuf.Pos{Line: 203}},
		{name: "ctrl home", at: textbuf.Pos{Line: 100, Col: 2}, do: func(e *Editor) { ctrl(e, fyne.KeyHome, false) }, want: textbuf.Pos{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEditor(t, text, false)
			e.moveTo(tt.at, false)
			tt.do(e)
			if e.caret != tt.want {
				t.Errorf("caret = %v, want %v", e.caret, tt.want)
			}
			if !e.Selection().Empty() {
				t.Errorf("selection %v after a move without Shift", e.Selection())
			}
		})
	}
}

func TestEditorPageKeys(t *testing.T) {
	e := newTestEditor(t, numberedText(500), false)
	rows := int(e.scroll.Size().Height/e.look.cell.Height) - 1
	key(e, fyne.KeyPageDown, fyne.KeyPageDown)
	if e.caret.Line != 2*rows {
		t.Errorf("two PageDowns: line %d, want %d", e.caret.Line, 2*rows)
	}
	key(e, fyne.KeyPageUp)
	if e.caret.Line != rows {
		t.Errorf("PageUp: line %d, want %d", e.caret.Line, rows)
	}
	if e.scroll.Offset.Y == 0 {
		t.Error("paging did not scroll")
	}
}

func TestEditorCaretStaysInView(t *testing.T) {
	e := newTestEditor(t, numberedText(5000), false)
	ctrl(e, fyne.KeyEnd, false)
	if e.scroll.Offset.Y == 0 {
		t.Fatal("Ctrl+End did not scroll")
	}
	lines := gridLines(e)
	if len(lines) == 0 || len(lines) > 40 {
		t.Fatalf("grid holds %d rows, want a screenful", len(lines))
	}
	if !e.cursor.Visible() {
		t.Error("caret hidden after Ctrl+End")
	}
	y := e.cursor.Position().Y - e.scroll.Offset.Y
	if y < 0 || y >= e.scroll.Size().Height {
		t.Errorf("caret at y=%v in the view", y)
	}
}

func TestEditorShowLine(t *testing.T) {
	e := newTestEditor(t, numberedText(5000), false)
	e.ShowLine(2500)
	e.centreLine(2499)
	found := false
	for _, l := range gridLines(e) {
		found = found || l == "2500  line 2500"
	}
	if !found || e.caret != (textbuf.Pos{Line: 2499}) {
		t.Errorf("line 2500 shown %v, caret %v", found, e.caret)
	}
}

func TestEditorShowLineBeforeLayout(t *testing.T) {
	test.NewTempApp(t)
	buf := textbuf.New(numberedText(1000))
	e := New(buf, nil)
	e.ShowLine(700) // a new tab has no size yet
	w := test.NewTempWindow(t, e)
	w.Resize(fyne.NewSize(400, 300))
	found := false
	for _, l := range gridLines(e) {
		found = found || l == "700  line 700"
	}
	if !found {
		t.Errorf("line 700 not in view: %q", gridLines(e))
	}
}

func TestEditorSelection(t *testing.T) {
	e := newTestEditor(t, "foo barBaz\nqux", false)
	e.moveTo(textbuf.Pos{Col: 1}, false)
	shiftKey(e, fyne.KeyRight, fyne.KeyRight, fyne.KeyDown)
	if got := e.SelectedText(); got != "oo barBaz\nqux" {
		t.Errorf("shift+arrows selected %q", got)
	}
	key(e, fyne.KeyLeft)
	if !e.Selection().Empty() || e.caret != (textbuf.Pos{Col: 1}) {
		t.Errorf("Left did not collapse to the start: caret %v", e.caret)
	}
	cell := e.look.cell
	g := float32(gutterWidth(e.buf.LineCount()))
	test.DoubleTap(e.page) // at 0,0: the gutter, so the first word
	if got := e.SelectedText(); got != "foo" {
		t.Errorf("double tap selected %q", got)
	}
	e.page.DoubleTapped(&fyne.PointEvent{Position: fyne.NewPos((g+6)*cell.Width, cell.Height/2)})
	if got := e.SelectedText(); got != "barBaz" {
		t.Errorf("double tap on barBaz selected %q", got)
	}
	test.TapAt(e.page, fyne.NewPos((g+2)*cell.Width+1, cell.Height*1.5))
	if e.caret != (textbuf.Pos{Line: 1, Col: 2}) || !e.Selection().Empty() {
		t.Errorf("tap: caret %v selection %v", e.caret, e.Selection())
	}
	e.page.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos((g+4)*cell.Width, cell.Height/2)}})
	if got := e.SelectedText(); got != "barBaz\nqu" {
		t.Errorf("drag selected %q", got)
	}
	e.page.TypedShortcut(&fyne.ShortcutSelectAll{})
	if got := e.SelectedText(); got != e.buf.Text() {
		t.Errorf("select all selected %q", got)
	}
}

func TestEditorClipboard(t *testing.T) {
	e := newTestEditor(t, "one two", false)
	e.SelectRange(textbuf.Range{Start: textbuf.Pos{Col: 4}, End: textbuf.Pos{Col: 7}})
	e.page.TypedShortcut(&fyne.ShortcutCopy{})
	if got := fyne.CurrentApp().Clipboard().Content(); got != "two" {
		t.Errorf("clipboard after copy = %q", got)
	}
	e.page.TypedShortcut(&fyne.ShortcutCut{})
	if got := e.buf.Text(); got != "one " {
		t.Errorf("text after cut = %q", got)
	}
	e.moveTo(textbuf.Pos{}, false)
	fyne.CurrentApp().Clipboard().SetContent("zero\r\n")
	e.page.TypedShortcut(&fyne.ShortcutPaste{})
	if got := e.buf.Text(); got != "zero\none " {
		t.Errorf("text after paste = %q", got)
	}
}

// TestEditorUndoRedo: each typed line is one undo step, its line break
// with it.
func TestEditorUndoRedo(t *testing.T) {
	e := newTestEditor(t, "", false)
	test.Type(e.page, "hello")
	key(e, fyne.KeyReturn)
	test.Type(e.page, "world")
	e.page.TypedShortcut(&fyne.ShortcutUndo{})
	if got := e.buf.Text(); got != "hello" {
		t.Fatalf("after one undo: %q", got)
	}
	e.page.TypedShortcut(&fyne.ShortcutUndo{})
	if got := e.buf.Text(); got != "" {
		t.Fatalf("after two undos: %q", got)
	}
	ctrl(e, fyne.KeyZ, true) // Ctrl+Shift+Z
	if got := e.buf.Text(); got != "hello" || e.caret != (textbuf.Pos{Col: 5}) {
		t.Fatalf("after redo: %q caret %v", got, e.caret)
	}
	e.page.TypedShortcut(&fyne.ShortcutRedo{})
	if got := e.buf.Text(); got != "hello\nworld" {
		t.Errorf("after Ctrl+Y: %q", got)
	}
}

func TestEditorIndentSelection(t *testing.T) {
	e := newTestEditor(t, "a\n\tb\n\nc", false)
	e.SelectRange(textbuf.Range{Start: textbuf.Pos{Col: 0}, End: textbuf.Pos{Line: 3}})
	key(e, fyne.KeyTab)
	if got := e.buf.Text(); got != "\ta\n\t\tb\n\nc" {
		t.Fatalf("after Tab: %q", got)
	}
	if got := e.SelectedText(); got != "\ta\n\t\tb\n" {
		t.Errorf("selection after Tab: %q", got)
	}
	shiftKey(e, fyne.KeyTab)
	shiftKey(e, fyne.KeyTab)
	if got := e.buf.Text(); got != "a\nb\n\nc" {
		t.Fatalf("after two Shift+Tabs: %q", got)
	}
	e.page.TypedShortcut(&fyne.ShortcutUndo{})
	if got := e.buf.Text(); got != "a\n\tb\n\nc" {
		t.Errorf("undo of one outdent: %q", got)
	}
}

func TestEditorFind(t *testing.T) {
	e := newTestEditor(t, strings.Repeat("x foo y\n", 12), false)
	e.moveTo(textbuf.Pos{Line: 2, Col: 5}, false)
	ctrl(e, fyne.KeyF, false)
	test.Type(e.bars.query, "foo")
	if got := e.bars.count.Text; got != "4 of 12" {
		t.Errorf("count = %q, want 4 of 12", got)
	}
	if got := e.Selection(); got != (textbuf.Range{Start: textbuf.Pos{Line: 3, Col: 2}, End: textbuf.Pos{Line: 3, Col: 5}}) {
		t.Errorf("selected %v", got)
	}
	e.bars.step(-1)
	e.bars.step(-1)
	if got := e.bars.count.Text; got != "2 of 12" {
		t.Errorf("count after two previous = %q", got)
	}
	e.moveTo(textbuf.Pos{Line: 11, Col: 6}, false)
	e.bars.step(1)
	if got := e.bars.count.Text; got != "1 of 12" {
		t.Errorf("next wraps: count %q", got)
	}
	e.bars.query.SetText("nothing")
	if got := e.bars.count.Text; got != "No matches" {
		t.Errorf("count = %q", got)
	}
	e.bars.query.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if len(e.bars.box.Objects) != 0 {
		t.Error("Escape left the bar")
	}
}

func TestEditorGotoLine(t *testing.T) {
	e := newTestEditor(t, numberedText(3000), false)
	ctrl(e, fyne.KeyG, false)
	test.Type(e.bars.line, "1234")
	e.bars.line.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if e.caret != (textbuf.Pos{Line: 1233}) {
		t.Errorf("caret = %v, want line 1234", e.caret)
	}
	found := false
	for _, l := range gridLines(e) {
		found = found || l == "1234  line 1234"
	}
	if !found {
		t.Error("line 1234 not in view")
	}
}

func TestEditorHighlightsGo(t *testing.T) {
	e := newTestEditor(t, "package p\n", true)
	kw := e.look.styles.kinds[textbuf.Keyword]
	g := gutterWidth(e.buf.LineCount())
	if kw == nil || e.grid.Rows[0].Cells[g].Style != kw {
		t.Fatalf("package is not drawn as a keyword")
	}
	e.moveTo(textbuf.Pos{Line: 1}, false)
	test.Type(e.page, "func")
	if e.grid.Rows[1].Cells[g].Style != kw {
		t.Error("typed func is not drawn as a keyword")
	}
}

func TestEditorRefreshSkipsUnchanged(t *testing.T) {
	e := newTestEditor(t, numberedText(100), false)
	rows := e.grid.Rows
	e.Refresh()
	if &e.grid.Rows[0] != &rows[0] {
		t.Error("Refresh with nothing changed rebuilt the rows")
	}
}

// rowText is the text of a grid row.
func rowText(row widget.TextGridRow) string {
	var b strings.Builder
	for _, c := range row.Cells {
		b.WriteRune(c.Rune)
	}
	return b.String()
}

// TestReplaceAllIsOneUndoOfTheSpanThatDiffers: a format or rename makes
// the new text as one undo step, and the caret stays on its line.
func TestReplaceAllIsOneUndoOfTheSpanThatDiffers(t *testing.T) {
	const before = "package p\n\nfunc  F( ) {\n\tx := 1\n\t_ = x\n}\n"
	const after = "package p\n\nfunc F() {\n\tx := 1\n\t_ = x\n}\n"
	e := newTestEditor(t, before, true)
	e.SetCaret(textbuf.Pos{Line: 4, Col: 2})
	e.ReplaceAll(after)
	if got := e.buf.FileText(); got != after {
		t.Fatalf("text %q, want %q", got, after)
	}
	if e.caret != (textbuf.Pos{Line: 4, Col: 2}) {
		t.Errorf("caret %+v, want where it was (5:3)", e.caret)
	}
	e.Undo()
	if got := e.buf.FileText(); got != before {
		t.Errorf("one undo gave %q, want the text before", got)
	}
}
