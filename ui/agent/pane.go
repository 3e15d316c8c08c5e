package agent

import (
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
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
	labels []*widget.Label // one per block of t
	// shownFirst is t.first when the labels were last lined up with t's blocks.
	shownFirst int
	box        *fyne.Container
	scroll     *container.Scroll
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
	p.Cancel = widget.NewButton("Cancel", func() {
		if p.OnCancel != nil {
			p.OnCancel()
		}
	})
	p.box = container.NewVBox()
	p.scroll = container.NewVScroll(p.box)
	p.status.Truncation = fyne.TextTruncateEllipsis
	top := container.NewBorder(nil, nil, p.Agent, container.NewHBox(p.Start, p.Stop), p.Command)
	bottom := container.NewBorder(nil, p.status, nil, container.NewVBox(p.Send, p.Cancel), p.Prompt)
	p.Content = container.NewBorder(top, bottom, nil, nil, p.scroll)
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

// State is the pane's state.
func (p *Pane) State() State { return p.state }

// SetState enables what state allows and shows status (plain text of ours).
func (p *Pane) SetState(s State, status string) {
	p.state = s
	p.status.SetText(status)
	enable(p.Start, s == Stopped)
	enable(p.Agent, s == Stopped)
	enable(p.Command, s == Stopped)
	enable(p.Stop, s == Ready || s == Working)
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

// show brings the labels in line with the transcript's blocks, sets the
// text of the changed ones (all of them when old blocks were dropped,
// which shifts the indexes) and scrolls to the end.
func (p *Pane) show(changed []int) {
	if len(changed) == 0 {
		return
	}
	if drop := p.t.first - p.shownFirst; drop > 0 {
		drop = min(drop, len(p.labels))
		p.labels = p.labels[drop:]
		p.box.Objects = p.box.Objects[drop:]
		p.shownFirst = p.t.first
		changed = make([]int, len(p.t.Blocks))
		for i := range changed {
			changed[i] = i
		}
	}
	for len(p.labels) < len(p.t.Blocks) {
		l := widget.NewLabel("")
		l.Wrapping = fyne.TextWrapWord
		p.labels = append(p.labels, l)
		p.box.Objects = append(p.box.Objects, l)
	}
	for _, i := range changed {
		if i < 0 || i >= len(p.labels) {
			continue
		}
		b := p.t.Blocks[i]
		p.labels[i].TextStyle = fyne.TextStyle{Italic: b.Kind == KindThought || b.Kind == KindNote, Bold: b.Kind == KindPrompt}
		p.labels[i].SetText(b.String())
	}
	p.box.Refresh()
	p.scroll.ScrollToBottom()
}
