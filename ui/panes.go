package ui

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"trestle/app/watch"
	"trestle/app/workbench"
)

// Limits of the bottom panes: enough to scroll back through a long test
// run, small enough that a runaway loop cannot eat the window's memory.
const (
	maxRunLines   = 5000
	maxEvalLines  = 5000
	maxAgentCalls = 500
)

// pane is one of the window's bottom panes, a part that owns its widgets
// and its state (in its own file) and tells the window what it needs to
// know of it. The window shows each in a tab, lists it in the View menu
// ("<title> Pane"), gives it the keyboard there, and lets agents read it
// by name. Main goroutine only.
type pane interface {
	// paneTitle is its tab's title, said nowhere else.
	paneTitle() string
	// paneContent is what its tab shows.
	paneContent() fyne.CanvasObject
	// paneFocus is what gets the keyboard when the pane is focused; nil:
	// its content, when that takes keys.
	paneFocus() fyne.Focusable
	// agentText is the name agents read the pane by (trestle_output's
	// pane: "run", "eval") and its text, its last tail lines when tail > 0;
	// name "" keeps the pane from agents.
	agentText(tail int) (name, text string)
}

// Optional parts of a pane, which the window routes to when a pane has them.
type (
	// tabOwner is a pane that keeps its own tab (its title changes).
	tabOwner interface{ tabItem() *container.TabItem }
	// filesWatcher is a pane that hears of every batch of changes on disk,
	// after the tree shows them.
	filesWatcher interface{ filesChanged([]watch.Event) }
)

// paneParts is every bottom pane the window is built with, in tab order:
// each entry makes its pane for the window (in the pane's own file) and
// returns it. Adding a pane is one entry here (see the package doc). The
// Change Sets pane, when the window has change sets, comes after them
// (makeChangeSetsPane).
func paneParts() []func(w *Window) pane {
	return []func(*Window) pane{
		makeEvalPane, makeRunPane, makeProblemsPane, makeAgentsPane,
		makeSearchPane, makeGitPane, makeAgentPane,
	}
}

// panes is the bottom area of the window: the panes as tabs, and the
// panes the window reaches by type. Main goroutine only.
type panes struct {
	tabs  *container.AppTabs
	all   []pane // in tab order
	items map[pane]*container.TabItem
	// The panes the window's own code reaches (their files say how).
	eval     *evalPane
	run      *outputView
	runView  *runPane
	problems *problemsPane
	agents   *agentsPane
	search   *searchPane
	git      *gitPane
	agent    *agentHost // the Agent pane (agentpane.go)
}

// newPanes makes the window's panes from paneParts.
func newPanes(w *Window) *panes {
	p := &panes{tabs: container.NewAppTabs(), items: map[pane]*container.TabItem{}}
	w.panes = p
	for _, part := range paneParts() {
		p.append(part(w))
	}
	if pn := makeChangeSetsPane(w); pn != nil {
		p.append(pn)
	}
	return p
}

// add shows pn in a new tab, after the others.
func (p *panes) add(pn pane) {
	p.append(pn)
	p.tabs.Refresh()
}

// append is add without drawing the tab bar again: newPanes's, before the
// bar was ever drawn. Each redraw lays out every tab button (measuring its
// title), so adding the panes one by one cost a window's start ~100 ms.
// The first tab is the one shown.
func (p *panes) append(pn pane) {
	item := container.NewTabItem(pn.paneTitle(), pn.paneContent())
	if o, ok := pn.(tabOwner); ok {
		item = o.tabItem()
	}
	p.all = append(p.all, pn)
	p.items[pn] = item
	p.tabs.Items = append(p.tabs.Items, item)
}

// item is pn's tab, nil when pn was never added.
func (p *panes) item(pn pane) *container.TabItem { return p.items[pn] }

// show selects pn's tab.
func (p *panes) show(pn pane) {
	if it := p.items[pn]; it != nil {
		p.tabs.Select(it)
	}
}

// selected is the pane shown, or nil.
func (p *panes) selected() pane {
	it := p.tabs.Selected()
	for pn, item := range p.items {
		if item == it {
			return pn
		}
	}
	return nil
}

// readable is the pane agents read by name, or nil.
func (p *panes) readable(name string) pane {
	for _, pn := range p.all {
		if n, _ := pn.agentText(0); n == name && n != "" {
			return pn
		}
	}
	return nil
}

// filesChanged tells the panes that watch the disk of a batch of changes.
func (p *panes) filesChanged(events []watch.Event) {
	for _, pn := range p.all {
		if fw, ok := pn.(filesWatcher); ok {
			fw.filesChanged(events)
		}
	}
}

// focusTarget is what gets the keyboard when pn is focused.
func focusTarget(pn pane) fyne.Focusable {
	if f := pn.paneFocus(); f != nil {
		return f
	}
	f, _ := pn.paneContent().(fyne.Focusable)
	return f
}

// makeEvalPane, makeRunPane, makeProblemsPane and makeAgentsPane are the
// first four of paneParts.
func makeEvalPane(w *Window) pane {
	w.panes.eval = newEvalPane()
	return w.panes.eval
}

func makeRunPane(w *Window) pane {
	w.panes.runView = newRunPane(w.project.Root, w.openAt, w.filesNamed)
	w.panes.runView.tick = everySecond(w.main)
	w.panes.run = w.panes.runView.out
	return w.panes.runView
}

func makeProblemsPane(w *Window) pane {
	w.panes.problems = newProblemsPane(w.openAt)
	return w.panes.problems
}

func makeAgentsPane(w *Window) pane {
	w.panes.agents = newAgentsPane()
	w.panes.agents.onOpen = w.showCall
	return w.panes.agents
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

func (a *agentsPane) paneTitle() string                 { return "Agents" }
func (a *agentsPane) paneContent() fyne.CanvasObject    { return a.list }
func (a *agentsPane) paneFocus() fyne.Focusable         { return nil }
func (a *agentsPane) agentText(int) (name, text string) { return "", "" }

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

func (p *problemsPane) paneTitle() string                 { return "Problems" }
func (p *problemsPane) paneContent() fyne.CanvasObject    { return p.list }
func (p *problemsPane) paneFocus() fyne.Focusable         { return nil }
func (p *problemsPane) agentText(int) (name, text string) { return "", "" }

// set shows a run's problems, followed by gopls's live ones.
func (p *problemsPane) set(items []Problem) {
	p.run = items
	p.items = append(append([]Problem{}, items...), p.liveItems()...)
	p.list.Refresh()
}
