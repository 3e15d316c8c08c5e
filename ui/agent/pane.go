package agent

import (
	"slices"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"trestle/app/textbuf"
)

// Choice is an agent the pane offers: a name and its command line.
type Choice struct{ Name, Command string }

// Custom is the choice whose command line the person types.
const Custom = "Custom command"

// Choices are the agents the pane knows, then Custom.
var Choices = []Choice{
	{"Claude Code", "npx @zed-industries/claude-code-acp"},
	{"Codex", "npx @zed-industries/codex-acp"},
	{"Gemini CLI", "gemini --experimental-acp"},
	{Custom, ""},
}

// State is where the pane's session is.
type State int

const (
	Stopped  State = iota // no session: Start is offered
	Starting              // the agent is starting
	Ready                 // a session waits for a prompt
	Working               // a turn is running: Cancel is offered
)

// Pane is the Agent pane. Its On funcs are set by the host and called on
// the main goroutine; all its methods must be called there too.
type Pane struct {
	Content fyne.CanvasObject

	Agent   *widget.Select // the choice of agent
	Command *widget.Entry  // its command line
	Start   *widget.Button
	Stop    *widget.Button
	Prompt  *widget.Entry
	Send    *widget.Button
	Cancel  *widget.Button

	// OnStart starts a session with the command line; OnSend sends a
	// prompt; OnCancel cancels the turn; OnStop ends the session.
	OnStart  func(command string)
	OnSend   func(text string)
	OnCancel func()
	OnStop   func()

	state  State
	status *widget.Label
	t      Transcript
	// rows are the transcript's display rows; starts[i] is block i's first.
	rows   []row
	starts []int
	list   *widget.List
	// shownFirst is t.first when the rows were last lined up with t's blocks.
	shownFirst int
}

// New makes the pane with command as the command line (the last one used,
// or "" for the first choice's).
func New(command string) *Pane {
	p := &Pane{Command: widget.NewEntry(), Prompt: widget.NewMultiLineEntry(), status: widget.NewLabel("")}
	names := make([]string, len(Choices))
	for i, c := range Choices {
		names[i] = c.Name
	}
	p.Agent = widget.NewSelect(names, p.choose)
	p.Command.SetPlaceHolder("the agent's command line, e.g. npx @zed-industries/claude-code-acp")
	if command == "" {
		command = Choices[0].Command
	}
	p.Agent.SetSelected(choiceOf(command))
	p.Command.SetText(command)
	p.Command.OnChanged = func(s string) {
		if c := choiceOf(s); c != p.Agent.Selected {
			p.Agent.Selected = c
			p.Agent.Refresh()
		}
	}
	p.Prompt.SetPlaceHolder("Ask the agent; what it writes becomes a change set for you to review")
	p.Prompt.Wrapping = fyne.TextWrapWord
	p.Prompt.SetMinRowsVisible(2)
	p.Start = &widget.Button{Text: "Start", Importance: widget.HighImportance, OnTapped: func() {
		if cmd := strings.TrimSpace(p.Command.Text); cmd != "" && p.OnStart != nil {
			p.OnStart(cmd)
		}
	}}
	p.Stop = widget.NewButton("Stop", func() {
		if p.OnStop != nil {
			p.OnStop()
		}
	})
	p.Send = &widget.Button{Text: "Send", Importance: widget.HighImportance, OnTapped: p.send}
	// Enter in the command line starts the agent; Shift+Enter in the
	// prompt sends it (Enter there is a new line).
	p.Command.OnSubmitted = func(string) { p.Start.OnTapped() }
	p.Prompt.OnSubmitted = func(string) { p.send() }
	p.Cancel = widget.NewButton("Cancel", func() {
		if p.OnCancel != nil {
			p.OnCancel()
		}
	})
	p.status.Truncation = fyne.TextTruncateEllipsis
	top := container.NewBorder(nil, nil, p.Agent, container.NewHBox(p.Start, p.Stop), p.Command)
	bottom := container.NewBorder(nil, p.status, nil, container.NewVBox(p.Send, p.Cancel), p.Prompt)
	p.Content = container.NewBorder(top, bottom, nil, nil, p.newRowList())
	p.SetState(Stopped, "Choose an agent and press Start: it works in a sandboxed copy of the project.")
	return p
}

// choiceOf is the name of the choice whose command line is command.
func choiceOf(command string) string {
	for _, c := range Choices {
		if c.Command == strings.TrimSpace(command) && c.Command != "" {
			return c.Name
		}
	}
	return Custom
}

func (p *Pane) choose(name string) {
	for _, c := range Choices {
		if c.Name == name && c.Command != "" && c.Command != p.Command.Text {
			p.Command.SetText(c.Command)
		}
	}
	if name == Custom && p.Command.Text != "" && choiceOf(p.Command.Text) != Custom {
		p.Command.SetText("")
	}
}

func (p *Pane) send() {
	text := strings.TrimSpace(p.Prompt.Text)
	if text == "" || p.state != Ready || p.OnSend == nil {
		return
	}
	p.Prompt.SetText("")
	p.show(p.t.Add(KindPrompt, text))
	p.OnSend(text)
}

// Focus is what takes the keyboard when the pane is focused: the command
// line while no session runs, else the prompt.
func (p *Pane) Focus() fyne.Focusable {
	if p.state == Stopped {
		return p.Command
	}
	return p.Prompt
}

// State is the pane's state.
func (p *Pane) State() State { return p.state }

// SetState enables what state allows and shows status (plain text of ours).
func (p *Pane) SetState(s State, status string) {
	p.state = s
	p.status.SetText(status)
	enable(p.Start, s == Stopped)
	enable(p.Agent, s == Stopped)
	enable(p.Command, s == Stopped)
	enable(p.Stop, s != Stopped)
	enable(p.Send, s == Ready)
	enable(p.Cancel, s == Working)
}

type disableable interface {
	Enable()
	Disable()
}

func enable(w disableable, on bool) {
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
}

// Update shows a batch of the session's updates.
func (p *Pane) Update(batch []sdk.SessionUpdate) {
	var changed []int
	for _, u := range batch {
		changed = append(changed, p.t.Apply(u)...)
	}
	p.show(changed)
}

// Note adds a line of Trestle's own to the transcript.
func (p *Pane) Note(text string) { p.show(p.t.Add(KindNote, text)) }

// Text is the transcript as the pane shows it.
func (p *Pane) Text() string { return p.t.String() }

// show brings the rows in line with the transcript's blocks: from the
// first changed block on (all of them when old blocks were dropped, which
// shifts the indexes), and scrolls to the end. Streaming into the last
// block redoes only its rows, and the list draws only the rows in view, so
// a long session costs what one screen does.
func (p *Pane) show(changed []int) {
	if len(changed) == 0 {
		return
	}
	from := slices.Min(changed)
	if p.t.first != p.shownFirst {
		p.shownFirst, from = p.t.first, 0
	}
	from = max(0, min(from, len(p.starts)))
	if from < len(p.starts) {
		p.rows = p.rows[:p.starts[from]]
		p.starts = p.starts[:from]
	}
	for i := from; i < len(p.t.Blocks); i++ {
		p.starts = append(p.starts, len(p.rows))
		p.rows = appendRows(p.rows, p.t.Blocks[i])
	}
	p.list.Refresh()
	p.list.ScrollToBottom()
}

// maxRowRunes is how many characters a row of the transcript holds; a
// longer line goes on in the next row. The list scrolls sideways when the
// pane is narrower.
const maxRowRunes = 110

// row is one display row of the transcript.
type row struct {
	text  string
	style fyne.TextStyle
}

// appendRows appends b's rows to rows.
func appendRows(rows []row, b Block) []row {
	style := fyne.TextStyle{Italic: b.Kind == KindThought || b.Kind == KindNote, Bold: b.Kind == KindPrompt}
	for _, line := range strings.Split(b.String(), "\n") {
		runes := textbuf.ExpandTabs(nil, line, textbuf.DefaultTabWidth)
		rows = append(rows, row{string(runes[:min(len(runes), maxRowRunes)]), style})
		for at := maxRowRunes; at < len(runes); at += maxRowRunes {
			rows = append(rows, row{string(runes[at:min(len(runes), at+maxRowRunes)]), style})
		}
	}
	return rows
}

// newRowList is the list that shows rows, inside a sideways scroll wide
// enough for a whole row.
func (p *Pane) newRowList() fyne.CanvasObject {
	p.list = widget.NewList(
		func() int { return len(p.rows) },
		func() fyne.CanvasObject { return widget.NewLabel(strings.Repeat("m", maxRowRunes)) },
		func(id widget.ListItemID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			if id < len(p.rows) && (l.Text != p.rows[id].text || l.TextStyle != p.rows[id].style) {
				l.TextStyle = p.rows[id].style
				l.SetText(p.rows[id].text)
			}
		},
	)
	p.list.HideSeparators = true
	return container.NewHScroll(p.list)
}
