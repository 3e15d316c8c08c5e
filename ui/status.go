package ui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"trestle/app/workbench"
)

// messageLifetime is how long a Notify message stays in the status bar:
// long enough to read a sentence, short enough not to go stale.
const messageLifetime = 10 * time.Second

// statusBar is the strip along the bottom of the window: the project, the
// active selection, the evaluator, the MCP listener, the attached agents,
// a transient message, the caret's line:column and the agents' messages'
// bell (notices.go). Used on the main
// goroutine only.
type statusBar struct {
	project, branch, eval, mcp, agents *tipLabel // cut when the row is short; hover or click shows them whole
	cursor                             *widget.Label
	gopls                              *tipLabel  // the language server's state (lsp.go)
	message                            *tapLabel  // a click shows every recent message whole
	selection                          *tipSelect // the active .trestle.json selection
	bar                                fyne.CanvasObject
	clear                              *time.Timer // clears the message
	recent                             []string    // the last maxRecentMessages messages, oldest first

	trust *widget.Button // "Untrusted", shown while the project is (trust.go)
	// tips is the layer over the window's content where the labels' and the
	// selection's tips show (tip.go).
	tips *fyne.Container
	// main is the window's way onto the main goroutine (mainthread.go).
	main *mainThread
}

// maxRecentMessages is how many messages the status bar keeps to show
// whole when its message is clicked.
const maxRecentMessages = 50

func newStatusBar(root string, bell fyne.CanvasObject) *statusBar {
	s := &statusBar{
		project: newTipLabel(shortPath(root)),
		branch:  newTipLabel(""),
		selection: newTipSelect([]string{"default"}, "The selection: build tags, environment and packages from .trestle.json\n"+
			"that the evaluator, Build, Test and Vet use. \"default\" is none of them."),
		eval:    newTipLabel("evaluator: not started"),
		mcp:     newTipLabel(mcpText("", nil)),
		agents:  newTipLabel(agentsText(nil, 0)),
		message: newTapLabel(),
		cursor:  widget.NewLabel(""),
		gopls:   newTipLabel("gopls: idle"),
		trust:   newTrustButton(),
	}
	s.selection.SetSelected("default")
	s.message.Truncation = fyne.TextTruncateEllipsis
	s.message.Importance = widget.HighImportance
	s.branch.Hide()
	left := container.NewHBox(s.trust, s.project, s.branch, widget.NewSeparator(), s.selection, widget.NewSeparator(), s.eval,
		widget.NewSeparator(), s.mcp, widget.NewSeparator(), s.agents, widget.NewSeparator(), s.gopls, widget.NewSeparator())
	// statusrow.go: the message gives way first, then the labels: the
	// listener's address (agents find it in the registry), the project's
	// name (the window's title has it), the attached agents, the branch,
	// gopls's state. At 1024 px in an untrusted project even their stubs
	// are too wide: the address and the project then give up theirs. The
	// evaluator's state gives way last of all.
	left.Layout = shrinkRow{order: []fyne.CanvasObject{s.mcp, s.project, s.agents, s.branch, s.gopls},
		drop: []fyne.CanvasObject{s.mcp, s.project}}
	row := container.New(statusRow{}, left, s.message, container.NewHBox(s.cursor, bell))
	s.tips = container.NewWithoutLayout()
	s.selection.layer = s.tips
	for _, l := range s.labels() {
		l.onText = func() { relayoutRow(row, left) } // a longer text takes its width from the others, in their order
		l.layer = s.tips
	}
	s.bar = container.NewBorder(widget.NewSeparator(), nil, nil, nil, row)
	return s
}

// relayoutRow lays the status row out again after a label's text
// changed (the label has refreshed itself). The row's Refresh would also
// refresh every other label in it, and each truncated label shapes its
// text again at a refresh (about 1 ms each: Fyne makes a new shaper every
// time), for every change of the evaluator's, gopls's or the listener's
// state. The left part is laid out even when the row leaves its size as
// it was, since its labels share that width anew.
func relayoutRow(row, left *fyne.Container) {
	row.Layout.Layout(row.Objects, row.Size())
	left.Layout.Layout(left.Objects, left.Size())
}

// setBranch shows the git branch after the project ("⎇ main"), or nothing
// outside a repository.
func (s *statusBar) setBranch(branch string, ok bool) {
	switch {
	case !ok:
		s.branch.Hide()
		if s.branch.onText != nil {
			s.branch.onText()
		}
		return
	case branch == "":
		branch = "detached"
	}
	s.branch.Show()
	s.branch.SetText("⎇ " + branch)
	if s.branch.onText != nil {
		s.branch.onText() // shown: the row makes room for it
	}
}

// setCursor shows the caret position, or nothing when no editor is active.
func (s *statusBar) setCursor(line, col int) {
	if line <= 0 {
		s.cursor.SetText("")
		return
	}
	s.cursor.SetText(fmt.Sprintf("Ln %d, Col %d", line, col))
}

// notify shows msg until messageLifetime passes or another message comes.
func (s *statusBar) notify(msg string) {
	s.stop()
	s.message.SetText(msg)
	s.recent = append(s.recent, time.Now().Format("15:04:05")+"  "+msg)
	if over := len(s.recent) - maxRecentMessages; over > 0 {
		s.recent = append(s.recent[:0:0], s.recent[over:]...)
	}
	var timer *time.Timer
	timer = s.main.after(messageLifetime, func() {
		if s.clear == timer { // not replaced by a newer message
			s.message.SetText("")
		}
	})
	s.clear = timer
}

// report shows err, if any, in the status bar, through the main
// goroutine. Unlike the rest of the status bar it is safe to call from
// any goroutine.
func (s *statusBar) report(err error) {
	if err != nil {
		msg := err.Error()
		s.main.do(func() { s.notify(msg) })
	}
}

// tapLabel is a label that reports taps: the status bar's message, cut
// with an ellipsis when long, opens whole when clicked.
type tapLabel struct {
	widget.Label
	onTap func()
}

func newTapLabel() *tapLabel {
	l := &tapLabel{}
	l.ExtendBaseWidget(l)
	return l
}

// Tapped implements fyne.Tappable.
func (l *tapLabel) Tapped(*fyne.PointEvent) {
	if l.onTap != nil {
		l.onTap()
	}
}

// labels are the status bar's labels that cut their text.
func (s *statusBar) labels() []*tipLabel {
	return []*tipLabel{s.project, s.branch, s.eval, s.mcp, s.agents, s.gopls}
}

// stop cancels clearing the current message.
func (s *statusBar) stop() {
	if s.clear != nil {
		s.clear.Stop()
	}
}

// mcpText describes the MCP listener: its address, why it failed, or off.
// An address with an error is a listener that works with a problem.
func mcpText(addr string, err error) string {
	switch {
	case err != nil && addr != "":
		return fmt.Sprintf("MCP: %s (%v)", addr, err)
	case err != nil:
		return "MCP: failed: " + err.Error()
	case addr == "":
		return "MCP: off"
	default:
		return "MCP: " + addr
	}
}

// agentsText counts the attached clients and names them, and counts the
// connections that hold a place without having initialized.
func agentsText(clients []workbench.Client, connecting int) string {
	more := ""
	if connecting > 0 {
		more = fmt.Sprintf(", %d connecting", connecting)
	}
	if len(clients) == 0 {
		return "0 agents attached" + more
	}
	names := make([]string, len(clients))
	for i, c := range clients {
		names[i] = c.Name
		if names[i] == "" {
			names[i] = "unnamed client"
		}
	}
	noun := "agents"
	if len(clients) == 1 {
		noun = "agent"
	}
	return fmt.Sprintf("%d %s attached%s: %s", len(clients), noun, more, strings.Join(names, ", "))
}

// maxPathShown is how much of the project path the status bar shows: the
// end of a long path names the project, and the whole path would push the
// window wider than the screen (at 40, with the notices' bell, a 1280-pixel
// screen was too narrow for the status bar).
const maxPathShown = 30

// shortPath keeps the last maxPathShown characters of p, marking the cut.
func shortPath(p string) string {
	r := []rune(p)
	if len(r) <= maxPathShown {
		return p
	}
	return "…" + string(r[len(r)-maxPathShown+1:])
}
