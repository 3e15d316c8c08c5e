package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/textbuf"
)

// evalPane is a multi-line input with history and a Stop button under a
// transcript of evaluations, and, after a deadline or a Stop killed the
// evaluator, a bar that offers to replay the inputs that defined its
// state. Main goroutine only.
type evalPane struct {
	input      *evalInput
	transcript *evalTranscript
	stop       *widget.Button
	running    *widget.Label   // what the person's input runs, hidden while none does
	runs       int             // the person's inputs running
	lost       *fyne.Container // the state-lost bar, hidden until needed
	lostText   *widget.Label
	replay     *widget.Button
	content    fyne.CanvasObject

	onSubmit func(code string)                // set by the window; nil: evaluation is not available
	onStop   func()                           // Stop and Esc
	onReplay func(sel string, codes []string) // the Replay action
	pending  struct {
		sel   string
		codes []string
	}
}

func newEvalPane() *evalPane {
	e := &evalPane{transcript: newEvalTranscript(maxEvalLines)}
	e.input = newEvalInput(func(code string) {
		if e.onSubmit == nil || strings.TrimSpace(code) == "" {
			return
		}
		e.onSubmit(code)
	}, e.tapStop)
	e.input.setHint("Go to evaluate, e.g. strings.ToUpper(\"trestle\") — Enter runs, Shift+Enter adds a line, Up/Down walk the history, Esc stops")
	e.stop = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), e.tapStop)
	e.lostText = widget.NewLabel("")
	e.lostText.Wrapping = fyne.TextWrapWord
	e.replay = widget.NewButtonWithIcon("Replay", theme.MediaReplayIcon(), e.tapReplay)
	e.lost = container.NewBorder(nil, nil, nil, e.replay, e.lostText)
	e.lost.Hide()
	e.running = widget.NewLabel("")
	e.running.Truncation = fyne.TextTruncateEllipsis
	e.running.Hide()
	bottom := container.NewVBox(e.running, e.lost, container.NewBorder(nil, nil, nil, e.stop, e.input))
	e.content = container.NewBorder(nil, bottom, nil, nil, e.transcript.box)
	e.input.relayout = func() { bottom.Refresh(); e.content.Refresh() }
	return e
}

func (e *evalPane) paneTitle() string              { return "Eval" }
func (e *evalPane) paneContent() fyne.CanvasObject { return e.content }
func (e *evalPane) paneFocus() fyne.Focusable      { return e.input }

// agentText is the transcript: agents read it as "eval".
func (e *evalPane) agentText(tail int) (name, text string) { return "eval", e.transcript.text(tail) }

func (e *evalPane) tapStop() {
	if e.onStop != nil {
		e.onStop()
	}
}

// offerReplay shows that sel's evaluator lost its state, with the Replay
// action when some inputs defined it.
func (e *evalPane) offerReplay(sel string, codes []string) {
	e.pending.sel, e.pending.codes = sel, codes
	if len(codes) == 0 {
		e.lostText.SetText(fmt.Sprintf("The %s evaluator was killed and its state was lost; nothing needs replaying.", sel))
		e.replay.Hide()
	} else {
		e.lostText.SetText(fmt.Sprintf("The %s evaluator was killed and its state was lost. Replay the %d inputs that defined it (declarations, imports, assignments)?", sel, len(codes)))
		e.replay.Show()
	}
	e.lost.Show()
}

// startedRunning shows above the input that the person's code runs: Enter
// clears the input and the transcript shows the code only with its
// answer, so a slow input showed nothing in the pane while it ran.
func (e *evalPane) startedRunning(code string) {
	e.runs++
	first, _, more := strings.Cut(strings.TrimSpace(code), "\n")
	if more {
		first += " …"
	}
	e.running.SetText("Running " + first + " — Esc or Stop stops it")
	e.running.Show()
}

// doneRunning takes the running line away once no input of the person
// runs.
func (e *evalPane) doneRunning() {
	if e.runs > 0 {
		e.runs--
	}
	if e.runs == 0 {
		e.running.Hide()
	}
}

// hideReplay takes the state-lost bar away.
func (e *evalPane) hideReplay() {
	e.pending.sel, e.pending.codes = "", nil
	e.lost.Hide()
}

func (e *evalPane) tapReplay() {
	sel, codes := e.pending.sel, e.pending.codes
	e.hideReplay()
	if e.onReplay != nil && len(codes) > 0 {
		e.onReplay(sel, codes)
	}
}

// evalInput is the Eval pane's input: multi-line, wrapped; Enter runs,
// Shift+Enter adds a line, Up on the first line and Down on the last walk
// the history, Esc stops the running evaluation. Main goroutine only.
type evalInput struct {
	widget.Entry
	hist     history
	shift    bool
	rows     int // rows shown, see fitRows
	submit   func(string)
	stop     func()
	relayout func() // the pane's, after the input's height changed
	hint     string // the placeholder until the input has a width (setHint)
}

// setHint sets the placeholder once the input has a width. Set before,
// the wrapped placeholder is broken at width 0, a line for each
// character, which cost every window's start ~90 ms.
func (e *evalInput) setHint(text string) {
	e.hint = text
	if e.Size().Width > 0 {
		e.Resize(e.Size())
	}
}

// Resize sets the placeholder setHint holds, now that there is a width.
func (e *evalInput) Resize(size fyne.Size) {
	e.Entry.Resize(size)
	if hint := e.hint; hint != "" && size.Width > 0 {
		e.hint = ""
		e.SetPlaceHolder(hint)
	}
}

func newEvalInput(submit func(string), stop func()) *evalInput {
	e := &evalInput{submit: submit, stop: stop}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapBreak               // not TextWrapWord: see TestEvalInputTypesIntactWhenItWraps
	e.TextStyle = fyne.TextStyle{Monospace: true} // code, as in the transcript
	e.ExtendBaseWidget(e)
	e.SetMinRowsVisible(minInputRows)
	e.OnChanged = e.fitRows
	return e
}

// The input grows with its text from minInputRows to maxInputRows lines,
// then scrolls.
const (
	minInputRows = 2
	maxInputRows = 8
)

// fitRows shows as many rows as the text has lines, within the bounds, and
// has the pane lay itself out again when that changed.
func (e *evalInput) fitRows(text string) {
	rows := min(max(strings.Count(text, "\n")+1, minInputRows), maxInputRows)
	if rows == e.rows {
		return
	}
	e.rows = rows
	e.SetMinRowsVisible(rows)
	if e.relayout != nil {
		e.relayout()
	}
}

// KeyDown tracks Shift for Shift+Enter (desktop.Keyable).
func (e *evalInput) KeyDown(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = true
	}
	e.Entry.KeyDown(k)
}

// KeyUp tracks Shift for Shift+Enter (desktop.Keyable).
func (e *evalInput) KeyUp(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = false
	}
	e.Entry.KeyUp(k)
}

// TypedKey runs on Enter, adds a line on Shift+Enter, stops on Esc and
// walks the history at the first and last lines.
func (e *evalInput) TypedKey(k *fyne.KeyEvent) {
	if passWindowKey(e, k) {
		return
	}
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if e.shift {
			// the Entry adds a line on a plain Enter: let it see one, then
			// Shift held again (for Shift+arrow selection)
			shift := &fyne.KeyEvent{Name: desktop.KeyShiftLeft}
			e.Entry.KeyUp(shift)
			e.Entry.TypedKey(k)
			e.Entry.KeyDown(shift)
			return
		}
		text := e.Text
		e.hist.add(text)
		e.SetText("")
		e.submit(text)
	case fyne.KeyEscape:
		e.stop()
	case fyne.KeyUp:
		if e.CursorRow > 0 {
			e.Entry.TypedKey(k)
			return
		}
		e.SetText(e.hist.prev(e.Text))
		e.moveToEnd()
	case fyne.KeyDown:
		if strings.Contains(string([]rune(e.Text)[min(e.CursorTextOffset(), len([]rune(e.Text))):]), "\n") {
			e.Entry.TypedKey(k)
			return
		}
		e.SetText(e.hist.next())
		e.moveToEnd()
	default:
		e.Entry.TypedKey(k)
	}
}

func (e *evalInput) moveToEnd() {
	lines := strings.Split(e.Text, "\n")
	e.CursorRow = len(lines) - 1
	e.CursorColumn = len([]rune(lines[len(lines)-1]))
	e.Refresh()
}

// lineKind is what a transcript line shows, and so its colour.
type lineKind int

const (
	lineInput  lineKind = iota // the code, as typed
	lineOutput                 // what the code printed
	lineValue                  // = value (type)
	lineError                  // ! error, in the theme's error colour
	lineNote                   // note: ..., dimmed
)

// evalLine is one logical line of the transcript.
type evalLine struct {
	text string
	kind lineKind
}

// evalTranscript is the Eval pane's transcript: a bounded list of logical
// lines drawn in a TextGrid, wrapped at the grid's width (re-wrapped when
// it is resized) and coloured by kind; it follows new output. text gives
// the logical lines, unwrapped. Main goroutine only.
type evalTranscript struct {
	lines   []evalLine
	rows    []int // grid rows of each line
	max     int
	dropped int
	cols    int // wrap width in cells; 0 until laid out
	grid    *widget.TextGrid
	box     *fyne.Container
}

func newEvalTranscript(max int) *evalTranscript {
	t := &evalTranscript{max: max, grid: widget.NewTextGrid()}
	t.grid.Scroll = fyne.ScrollVerticalOnly
	t.grid.Hide() // until it has a line: see fit
	t.box = container.New(&wrapLayout{t: t}, t.grid)
	return t
}

// fit shows the grid once it has rows. Fyne's TextGrid fills all its room
// with cells (a text, a rectangle and a line each) whether or not it has
// rows: the empty transcript made ~3,300 cells at every window's start,
// laid out and walked on every frame. A hidden grid is not laid out
// (wrapLayout) nor drawn.
func (t *evalTranscript) fit() {
	if len(t.grid.Rows) > 0 && !t.grid.Visible() {
		t.grid.Show()
		t.box.Refresh() // lays the grid out: it was not while hidden
	}
}

// append adds lines and scrolls to the end.
func (t *evalTranscript) append(lines ...evalLine) {
	for _, l := range lines {
		rows := t.wrap(l)
		t.lines = append(t.lines, l)
		t.rows = append(t.rows, len(rows))
		t.grid.Rows = append(t.grid.Rows, rows...)
	}
	if over := len(t.lines) - t.max; over > 0 {
		n := 0
		for _, r := range t.rows[:over] {
			n += r
		}
		t.lines = append(t.lines[:0:0], t.lines[over:]...)
		t.rows = append(t.rows[:0:0], t.rows[over:]...)
		t.grid.Rows = append(t.grid.Rows[:0:0], t.grid.Rows[n:]...)
		t.dropped += over
	}
	t.fit()
	t.grid.Refresh()
	t.grid.ScrollToBottom()
}

// text returns the last tail logical lines (all when tail <= 0), with a
// first line saying how many were dropped when any were.
func (t *evalTranscript) text(tail int) string {
	lines, skipped := t.lines, t.dropped
	if tail > 0 && tail < len(lines) {
		skipped += len(lines) - tail
		lines = lines[len(lines)-tail:]
	}
	var b strings.Builder
	if skipped > 0 {
		fmt.Fprintf(&b, "[%d earlier lines not shown]\n", skipped)
	}
	for _, l := range lines {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	return b.String()
}

// setCols re-wraps every line when the width in cells changed.
func (t *evalTranscript) setCols(cols int) {
	if cols == t.cols || cols < 1 {
		return
	}
	t.cols = cols
	if len(t.lines) == 0 {
		return // nothing to wrap; the hidden grid need not be drawn
	}
	t.grid.Rows = t.grid.Rows[:0]
	for i, l := range t.lines {
		rows := t.wrap(l)
		t.rows[i] = len(rows)
		t.grid.Rows = append(t.grid.Rows, rows...)
	}
	t.grid.Refresh()
	t.grid.ScrollToBottom()
}

// wrap cuts a line into grid rows of at most t.cols cells, tabs expanded.
func (t *evalTranscript) wrap(l evalLine) []widget.TextGridRow {
	runes := textbuf.ExpandTabs(nil, strings.TrimRight(l.text, "\r"), 4)
	style := styleOf(l.kind)
	var rows []widget.TextGridRow
	for {
		n := len(runes)
		if t.cols > 0 && n > t.cols {
			n = t.cols
		}
		cells := make([]widget.TextGridCell, n)
		for i, r := range runes[:n] {
			cells[i] = widget.TextGridCell{Rune: r}
		}
		rows = append(rows, widget.TextGridRow{Cells: cells, Style: style})
		runes = runes[n:]
		if len(runes) == 0 {
			return rows
		}
	}
}

// styleOf colours errors with the theme's error colour and dims notes.
func styleOf(k lineKind) widget.TextGridStyle {
	switch k {
	case lineError:
		return &widget.CustomTextGridStyle{FGColor: theme.Color(theme.ColorNameError)}
	case lineNote:
		return &widget.CustomTextGridStyle{FGColor: theme.Color(theme.ColorNamePlaceHolder)}
	}
	return nil
}

// wrapLayout gives the grid all the room and tells the transcript how many
// cells wide it is.
// When the transcript showed its end and its room changes (the Replay bar
// shown with a deadline's error, the input back to its two-row hint after
// Enter), it keeps its end in view: those lines were left hidden below
// the bar until the person scrolled.
type wrapLayout struct {
	t      *evalTranscript
	height float32 // the height of the last layout
}

func (l *wrapLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	g := l.t.grid
	follow := size.Height != l.height && g.Visible() && len(g.Rows) > 0 &&
		g.PositionForCursorLocation(len(g.Rows), 0).Y <= g.Size().Height+1 // the end was in view
	l.height = size.Height
	for _, o := range objs {
		if !o.Visible() {
			continue // the empty grid: see fit
		}
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	cell := fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{Monospace: true}).Width
	if cell > 0 {
		l.t.setCols(int((size.Width - theme.ScrollBarSize() - 2*theme.Padding()) / cell))
	}
	if follow {
		g.ScrollToBottom()
	}
}

func (l *wrapLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return objs[0].MinSize()
}
