package editor

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/textbuf"
)

// editorBars are the small bars over an editor: find in file (Ctrl+F)
// and go to line (Ctrl+G). At most one shows. Main goroutine only.
type editorBars struct {
	e   *Editor
	box *fyne.Container // holds the bar that shows, or nothing

	query, line *BarEntry
	replace     *BarEntry
	count       *widget.Label
	find, goTo  fyne.CanvasObject

	matches []textbuf.Range
	current int // index in matches of the selected match; -1 for none
	version int // the editor's version matches were found at
}

func newEditorBars(e *Editor) *editorBars {
	b := &editorBars{e: e, current: -1}
	b.query = newBarEntry(b.hide)
	b.query.SetPlaceHolder("Find")
	b.query.OnChanged = func(string) { b.search() }
	b.query.OnSubmitted = func(string) { b.step(1) }
	b.count = widget.NewLabel("")
	b.replace = newBarEntry(b.hide)
	b.replace.SetPlaceHolder("Replace with")
	b.replace.OnSubmitted = func(string) { b.replaceOne() }
	findRow := container.NewBorder(nil, nil, nil, container.NewHBox(b.count,
		widget.NewButtonWithIcon("", theme.MoveUpIcon(), func() { b.step(-1) }),
		widget.NewButtonWithIcon("", theme.MoveDownIcon(), func() { b.step(1) }),
		widget.NewButtonWithIcon("", theme.CancelIcon(), b.hide)), b.query)
	replaceRow := container.NewBorder(nil, nil, nil, container.NewHBox(
		widget.NewButton("Replace", b.replaceOne), widget.NewButton("All", b.replaceAll)), b.replace)
	b.find = container.NewVBox(findRow, replaceRow)
	b.line = newBarEntry(b.hide)
	b.line.SetPlaceHolder("Go to line")
	b.line.OnSubmitted = b.goToLine
	b.goTo = container.NewBorder(nil, nil, nil, container.NewHBox(
		widget.NewButton("Go", func() { b.goToLine(b.line.Text) }),
		widget.NewButtonWithIcon("", theme.CancelIcon(), b.hide)), b.line)
	b.box = container.NewStack()
	return b
}

// showFind shows the find bar, seeded with the selection when it is on
// one line, else with the word at the caret, and focuses its entry with
// its text selected, so that typing replaces it.
func (b *editorBars) showFind() {
	if sel := b.e.Selection(); !sel.Empty() && sel.Start.Line == sel.End.Line {
		b.query.SetText(b.e.SelectedText())
	} else if w := wordAtCaret(b.e); w != "" {
		b.query.SetText(w)
	}
	b.show(b.find, b.query)
	b.query.TypedShortcut(&fyne.ShortcutSelectAll{})
	b.search()
}

// wordAtCaret is the identifier at or just before the caret, or "".
func wordAtCaret(e *Editor) string {
	line := e.buf.Line(e.caret.Line)
	start, end := textbuf.WordAt(line, e.caret.Col)
	w := string([]rune(line)[start:end])
	for _, r := range w {
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return ""
		}
	}
	return w
}

// findShown reports whether the find bar shows.
func (b *editorBars) findShown() bool {
	return len(b.box.Objects) == 1 && b.box.Objects[0] == b.find
}

// current matches are the matches of the query in the text as it is now
// (found again after an edit), for highlighting while the find bar shows.
func (b *editorBars) currentMatches() []textbuf.Range {
	if !b.findShown() {
		return nil
	}
	if b.version != b.e.version {
		b.matches = b.e.buf.Find(b.query.Text, false)
		b.version = b.e.version
		b.current = -1
		b.showCount()
	}
	return b.matches
}

// replaceOne replaces the selected match (selecting the next one first
// when the selection is none) and selects the next.
func (b *editorBars) replaceOne() {
	ms := b.currentMatches()
	sel := b.e.Selection()
	for _, m := range ms {
		if m == sel {
			b.e.replaceSelection(b.replace.Text)
			b.e.buf.Seal()
			b.step(1)
			return
		}
	}
	b.step(1)
}

// replaceAll replaces every match as one undo step.
func (b *editorBars) replaceAll() {
	ms := b.currentMatches()
	if len(ms) == 0 {
		return
	}
	n := b.e.buf.ReplaceAll(ms, b.replace.Text)
	b.e.edited(b.e.buf.Clamp(ms[0].Start))
	b.search()
	b.count.SetText(fmt.Sprintf("Replaced %d", n))
}

// showGoto shows the go-to-line bar and focuses its entry.
func (b *editorBars) showGoto() {
	b.line.SetText("")
	b.show(b.goTo, b.line)
}

func (b *editorBars) show(bar fyne.CanvasObject, entry *BarEntry) {
	b.box.Objects = []fyne.CanvasObject{bar}
	b.box.Refresh()
	b.e.content.Refresh()
	if c := fyne.CurrentApp().Driver().CanvasForObject(b.e.page); c != nil {
		c.Focus(entry)
	}
}

// hide hides the bar and gives the keyboard back to the text.
func (b *editorBars) hide() {
	if len(b.box.Objects) == 0 {
		return
	}
	b.box.Objects = nil
	b.box.Refresh()
	b.e.content.Refresh()
	b.e.invalidate() // the matches' highlight goes
	b.e.page.focus()
}

// search finds the query and selects the first match at or after the
// selection's start.
func (b *editorBars) search() {
	b.matches = b.e.buf.Find(b.query.Text, false)
	b.version = b.e.version
	b.current = -1
	if len(b.matches) > 0 {
		b.selectMatch(b.firstFrom(b.e.Selection().Start))
	}
	b.showCount()
	b.e.invalidate() // every match is highlighted
}

// step selects the next match (dir 1) or the previous one (dir -1) from
// the caret, wrapping around the text.
func (b *editorBars) step(dir int) {
	if b.version != b.e.version {
		b.matches = b.e.buf.Find(b.query.Text, false)
		b.version = b.e.version
	}
	if len(b.matches) == 0 {
		b.current = -1
		b.showCount()
		return
	}
	sel := b.e.Selection()
	i := b.firstFrom(sel.End)
	if dir < 0 {
		i = b.firstFrom(sel.Start) - 1
	}
	b.selectMatch((i + len(b.matches)) % len(b.matches))
	b.showCount()
}

// firstFrom returns the index of the first match starting at or after p.
func (b *editorBars) firstFrom(p textbuf.Pos) int {
	for i, m := range b.matches {
		if !m.Start.Before(p) {
			return i
		}
	}
	return len(b.matches)
}

func (b *editorBars) selectMatch(i int) {
	i %= len(b.matches)
	b.current = i
	b.e.SelectRange(b.matches[i])
}

func (b *editorBars) showCount() {
	switch {
	case b.query.Text == "":
		b.count.SetText("")
	case len(b.matches) == 0:
		b.count.SetText("No matches")
	default:
		b.count.SetText(fmt.Sprintf("%d of %d", b.current+1, len(b.matches)))
	}
}

// ShowFind shows the ShowFind bar (Ctrl+F).
func (e *Editor) ShowFind() { e.bars.showFind() }

// ShowGoToLine shows the go-to-line bar (Ctrl+G).
func (e *Editor) ShowGoToLine() { e.bars.showGoto() }

// goToLine moves the caret to the line number in text and hides the bar.
func (b *editorBars) goToLine(text string) {
	n, err := strconv.Atoi(strings.TrimSpace(text))
	if err != nil || n < 1 {
		b.line.SetText("")
		return
	}
	b.hide()
	b.e.ShowLine(n)
	b.e.centreLine(b.e.caret.Line)
}

// BarEntry is the entry of a bar: Escape hides the bar.
type BarEntry struct {
	widget.Entry
	onEscape func()
}

func newBarEntry(onEscape func()) *BarEntry {
	e := &BarEntry{onEscape: onEscape}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey hides the bar on Escape and otherwise types as an Entry does.
// Main goroutine, like every event.
func (e *BarEntry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		e.onEscape()
		return
	}
	e.Entry.TypedKey(ev)
}
