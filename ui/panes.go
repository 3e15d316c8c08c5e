package ui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"trestle/app"
)

// Limits of the bottom panes: enough to scroll back through a long test
// run, small enough that a runaway loop cannot eat the window's memory.
const (
	maxRunLines   = 5000
	maxEvalLines  = 5000
	maxAgentCalls = 500
)

// panes is the bottom area of the window: Eval, Run, Problems and Agents
// as tabs. Main goroutine only.
type panes struct {
	tabs     *container.AppTabs
	eval     *evalPane
	run      *outputView
	problems *problemsPane
	agents   *agentsPane
	runTab   *container.TabItem
	evalTab  *container.TabItem
}

func newPanes(open func(rel string, line int)) *panes {
	p := &panes{
		eval:     newEvalPane(),
		run:      newOutputView(maxRunLines),
		problems: newProblemsPane(open),
		agents:   newAgentsPane(),
	}
	p.evalTab = container.NewTabItem("Eval", p.eval.content)
	p.runTab = container.NewTabItem("Run", p.run.grid)
	p.tabs = container.NewAppTabs(p.evalTab, p.runTab,
		container.NewTabItem("Problems", p.problems.list),
		container.NewTabItem("Agents", p.agents.list))
	return p
}

// agentsPane lists agent tool calls, newest last. Main goroutine only.
type agentsPane struct {
	calls []app.ToolCall
	list  *widget.List
}

func newAgentsPane() *agentsPane {
	a := &agentsPane{}
	a.list = widget.NewList(
		func() int { return len(a.calls) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(callText(a.calls[id])) },
	)
	return a
}

// add lists a call as it starts, and updates its row when it ends.
func (a *agentsPane) add(c app.ToolCall) {
	for i := len(a.calls) - 1; i >= 0 && i >= len(a.calls)-64; i-- { // ends come soon after starts
		if a.calls[i].ID == c.ID && c.ID != 0 {
			a.calls[i] = c
			a.list.RefreshItem(i)
			return
		}
	}
	a.calls = append(a.calls, c)
	if over := len(a.calls) - maxAgentCalls; over > 0 {
		a.calls = append(a.calls[:0:0], a.calls[over:]...)
	}
	a.list.Refresh()
	a.list.ScrollToBottom()
}

// callText is one row of the Agents pane.
func callText(c app.ToolCall) string {
	return fmt.Sprintf("%s  %s  %s  %s  %s  %s", c.Time.Format("15:04:05"), c.Client, c.Tool,
		c.State, c.Duration.Round(time.Millisecond/10), c.Summary)
}

// Problem is one file:line:col problem from a build, vet or test run.
type Problem struct {
	Path    string // project-relative
	Line    int
	Col     int
	Message string
	Source  string // "" for a run's; "gopls" or "gopls/<analyzer>" for the live ones
}

func (p Problem) String() string {
	if p.Source != "" {
		return fmt.Sprintf("[%s] %s:%d:%d: %s", p.Source, p.Path, p.Line, p.Col, p.Message)
	}
	if p.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", p.Path, p.Line, p.Col, p.Message)
	}
	return fmt.Sprintf("%s:%d: %s", p.Path, p.Line, p.Message)
}

// problemsPane lists problems; tapping one opens the editor there. Main
// goroutine only.
type problemsPane struct {
	items []Problem // run, then live
	run   []Problem
	live  map[string][]Problem // gopls's, by file (lsp.go)
	list  *widget.List
}

func newProblemsPane(open func(rel string, line int)) *problemsPane {
	p := &problemsPane{}
	p.list = widget.NewList(
		func() int { return len(p.items) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(p.items[id].String()) },
	)
	p.list.OnSelected = func(id widget.ListItemID) {
		it := p.items[id]
		p.list.Unselect(id)
		open(it.Path, it.Line)
	}
	return p
}

// set shows a run's problems, followed by gopls's live ones.
func (p *problemsPane) set(items []Problem) {
	p.run = items
	p.items = append(append([]Problem{}, items...), p.liveItems()...)
	p.list.Refresh()
}

// evalPane is an input line with history over a transcript of
// evaluations. Main goroutine only.
type evalPane struct {
	input      *historyEntry
	transcript *outputView
	content    fyne.CanvasObject
	onSubmit   func(code string) // set by the window; nil: evaluation is not available
}

func newEvalPane() *evalPane {
	e := &evalPane{transcript: newOutputView(maxEvalLines)}
	e.input = newHistoryEntry(func(code string) {
		if e.onSubmit == nil || strings.TrimSpace(code) == "" {
			return
		}
		e.onSubmit(code)
	})
	e.input.SetPlaceHolder("Go to evaluate, e.g. strings.ToUpper(\"trestle\") — Enter runs, Up/Down walk the history")
	e.content = container.NewBorder(nil, e.input, nil, nil, e.transcript.grid)
	return e
}

// historyEntry is a one-line entry whose Up and Down keys walk its history
// and whose Enter submits. Main goroutine only.
type historyEntry struct {
	widget.Entry
	hist history
}

func newHistoryEntry(submit func(string)) *historyEntry {
	e := &historyEntry{}
	e.ExtendBaseWidget(e)
	e.OnSubmitted = func(text string) {
		e.hist.add(text)
		e.SetText("")
		submit(text)
	}
	return e
}

// TypedKey walks the history on Up and Down.
func (e *historyEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyUp:
		e.SetText(e.hist.prev(e.Text))
		e.CursorColumn = len([]rune(e.Text))
	case fyne.KeyDown:
		e.SetText(e.hist.next())
		e.CursorColumn = len([]rune(e.Text))
	default:
		e.Entry.TypedKey(k)
	}
}
