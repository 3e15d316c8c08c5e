package ui

// The person's own agents: a name and a command line each, edited from
// Settings (its Agents row) or the Agent pane (Agents…), both the one
// editor, kept in the store, and offered in every Agent pane's choice
// after Claude Code, Codex and Gemini CLI.

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	fynecontainer "fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app/acp"
	"trestle/app/changeset"
	"trestle/ui/agent"
)

// loadAgents offers the stored agents in this pane, read off the main
// goroutine. Any goroutine.
func (h *agentHost) loadAgents() {
	st := h.w.actions.Store
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if st == nil || closed {
		return
	}
	h.turns.Go(func() {
		if own, err := acp.SavedAgents(st); err == nil {
			h.do(func() { h.pane.SetAgents(agentChoices(own)) })
		}
	})
}

func agentChoices(own []acp.AgentEntry) []agent.Choice {
	out := make([]agent.Choice, len(own))
	for i, a := range own {
		out[i] = agent.Choice{Name: a.Name, Command: a.Command}
	}
	return out
}

// parseAgents reads "Name = command line" lines; it names the lines it
// cannot read.
func parseAgents(text string) ([]acp.AgentEntry, []string) {
	var own []acp.AgentEntry
	var bad []string
	for i, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		name, command, ok := strings.Cut(line, "=")
		name, command = strings.TrimSpace(name), strings.TrimSpace(command)
		if !ok || name == "" || command == "" || len(own) == acp.MaxAgents {
			bad = append(bad, fmt.Sprintf("line %d", i+1))
			continue
		}
		own = append(own, acp.AgentEntry{Name: name, Command: command})
	}
	return own, bad
}

// editAgents shows the person's own agents, one a line as
// "Name = command line", and on Save stores them and offers them in every
// Agent pane. Main goroutine only.
func (h *agentHost) editAgents() {
	st := h.w.actions.Store
	entry := widget.NewMultiLineEntry()
	entry.SetPlaceHolder("My agent = my-agent --acp")
	entry.SetMinRowsVisible(6)
	var current []string
	for _, c := range h.paneChoices() {
		current = append(current, c.Name+" = "+c.Command)
	}
	entry.SetText(strings.Join(current, "\n"))
	help := widget.NewLabel("Your own agents, one a line: a name, \"=\", and the command line that starts it (any agent " +
		"that speaks the Agent Client Protocol on stdio). Claude Code, Codex and Gemini CLI are always offered.")
	help.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm("Agents", "Save", "Cancel", fynecontainer.NewBorder(help, nil, nil, nil, entry), func(ok bool) {
		if !ok {
			return
		}
		own, bad := parseAgents(entry.Text)
		for _, g := range h.group.hosts() {
			g.pane.SetAgents(agentChoices(own))
		}
		if len(bad) > 0 {
			h.pane.Note("Not an agent (write Name = command line): " + strings.Join(bad, ", "))
		}
		if st == nil {
			h.pane.Note("This window keeps no store: your agents last until it closes.")
			return
		}
		h.turns.Go(func() {
			if err := acp.SaveAgents(st, own); err != nil {
				h.do(func() { h.pane.Note("Your agents were not kept: " + changeset.EscapeControls(err.Error(), "")) })
			}
		})
	}, h.w.win)
	d.Resize(fyne.NewSize(620, 360))
	h.w.dialogs.show(d)
}

// agentsSetting is the Settings dialog's Agents row: the agents offered,
// and Edit agents… opening the Agent pane's editor (editAgents), so both
// keep the one stored list. Main goroutine only.
func (h *agentHost) agentsSetting() *widget.FormItem {
	var names []string
	for _, c := range h.pane.Choices() {
		if c.Name != agent.Custom {
			names = append(names, c.Name)
		}
	}
	list := widget.NewLabel(strings.Join(names, ", "))
	list.Wrapping = fyne.TextWrapWord
	edit := newEscButton("Edit agents…", h.editAgents)
	return &widget.FormItem{Text: "Agents", Widget: fynecontainer.NewBorder(nil, nil, nil, edit, list),
		HintText: "offered in the Agent pane; your own are a name and the command line that starts it"}
}

// paneChoices are the person's own agents this pane offers.
func (h *agentHost) paneChoices() []agent.Choice {
	var own []agent.Choice
	for _, c := range h.pane.Choices() {
		if _, known := agent.ChoiceFor(c.Command); !known && c.Name != agent.Custom {
			own = append(own, c)
		}
	}
	return own
}
