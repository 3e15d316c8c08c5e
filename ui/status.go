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

// messageLifetime is how long a Notify message stays in the status bar:
// long enough to read a sentence, short enough not to go stale.
const messageLifetime = 10 * time.Second

// statusBar is the strip along the bottom of the window: the project, the
// active selection, the evaluator, the MCP listener, the attached agents,
// a transient message and the caret's line:column. Used on the main
// goroutine only.
type statusBar struct {
	project, eval, mcp, agents, message, cursor *widget.Label
	gopls                                       *widget.Label  // the language server's state (lsp.go)
	selection                                   *widget.Select // the active .trestle.json selection
	bar                                         fyne.CanvasObject
	clear                                       *time.Timer // clears the message
}

func newStatusBar(root string) *statusBar {
	s := &statusBar{
		project:   widget.NewLabel(shortPath(root)),
		selection: widget.NewSelect([]string{"default"}, nil),
		eval:      widget.NewLabel("evaluator: not started"),
		mcp:       widget.NewLabel(mcpText("", nil)),
		agents:    widget.NewLabel(agentsText(nil)),
		message:   widget.NewLabel(""),
		cursor:    widget.NewLabel(""),
		gopls:     widget.NewLabel("gopls: idle"),
	}
	s.selection.SetSelected("default")
	s.message.Truncation = fyne.TextTruncateEllipsis
	s.message.Importance = widget.HighImportance
	left := container.NewHBox(s.project, widget.NewSeparator(), s.selection, widget.NewSeparator(), s.eval,
		widget.NewSeparator(), s.mcp, widget.NewSeparator(), s.agents, widget.NewSeparator(), s.gopls, widget.NewSeparator())
	s.bar = container.NewBorder(widget.NewSeparator(), nil, left, s.cursor, s.message)
	return s
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
	var timer *time.Timer
	timer = time.AfterFunc(messageLifetime, func() {
		fyne.Do(func() {
			if s.clear == timer { // not replaced by a newer message
				s.message.SetText("")
			}
		})
	})
	s.clear = timer
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

// agentsText counts the attached clients and names them.
func agentsText(clients []app.Client) string {
	if len(clients) == 0 {
		return "0 agents attached"
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
	return fmt.Sprintf("%d %s attached: %s", len(clients), noun, strings.Join(names, ", "))
}

// maxPathShown is how much of the project path the status bar shows: the
// end of a long path names the project, and the whole path would push the
// window wider than the screen.
const maxPathShown = 40

// shortPath keeps the last maxPathShown characters of p, marking the cut.
func shortPath(p string) string {
	r := []rune(p)
	if len(r) <= maxPathShown {
		return p
	}
	return "…" + string(r[len(r)-maxPathShown+1:])
}
