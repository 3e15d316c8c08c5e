package ui

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"trestle/app/workbench"
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
	runView  *runPane
	problems *problemsPane
	agents   *agentsPane
	runTab   *container.TabItem
	evalTab  *container.TabItem
	// search is find in files (searchpane.go), git the Changes tab
	// (gitpane.go); the window adds both.
	search    *searchPane
	searchTab *container.TabItem
	git       *gitPane
	agent     *agentHost // the Agent pane (agentpane.go)
}

func newPanes(root string, open func(rel string, line int), named func(base string) []string) *panes {
	p := &panes{
		eval:     newEvalPane(),
		runView:  newRunPane(root, open, named),
		problems: newProblemsPane(open),
		agents:   newAgentsPane(),
	}
	p.run = p.runView.out
	p.evalTab = container.NewTabItem("Eval", p.eval.content)
	p.runTab = container.NewTabItem("Run", p.runView.content)
	p.tabs = container.NewAppTabs(p.evalTab, p.runTab,
		container.NewTabItem("Problems", p.problems.list),
		container.NewTabItem("Agents", p.agents.list))
	return p
}

// agentsPane lists agent tool calls, newest last; a click opens one
// (onOpen, set by the window). Main goroutine only.
type agentsPane struct {
	calls  []workbench.ToolCall
	list   *widget.List
	onOpen func(workbench.ToolCall)
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
	a.list.OnSelected = func(id widget.ListItemID) {
		a.list.Unselect(id)
		if id < len(a.calls) && a.onOpen != nil {
			a.onOpen(a.calls[id])
		}
	}
	return a
}

// add lists a call as it starts, and updates its row when it ends.
func (a *agentsPane) add(c workbench.ToolCall) {
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
func callText(c workbench.ToolCall) string {
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
