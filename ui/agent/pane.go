package agent

import (
	"slices"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/textbuf"
)

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
	New     *widget.Button // a pane for one more session
	Agents  *widget.Button // edits the person's own agents
	// Earlier lists the project's stored sessions; Resume resumes the chosen one.
	Earlier *widget.Select
	Resume  *widget.Button
	Prompt  *widget.Entry
	Send    *widget.Button
	Cancel  *widget.Button
	// Mode and Model choose among the modes and models the agent offers;
	// hidden when it offers none.
	Mode  *widget.Select
	Model *widget.Select

	// OnStart starts a session with the command line; OnSend sends a
	// prompt; OnCancel cancels the turn; OnStop ends the session.
	OnStart  func(command string)
	OnSend   func(text string)
	OnCancel func()
	OnStop   func()
	// OnAgents edits the person's own agents.
	OnAgents func()
	// OnNew opens one more session's pane.
	OnNew func()
	// OnResume resumes the stored session with the host's id.
	OnResume func(id string)
	// OnMode and OnModel ask for the mode or model with the agent's id.
	OnMode  func(id string)
	OnModel func(id string)

	state State
	// choices are the agents the Agent choice offers: the known ones, the
	// person's own before Custom.
	choices []Choice
	// earlierIDs are the host's ids of Earlier's options.
	earlierIDs []string
	// modeIDs and modelIDs are the agent's ids of Mode's and Model's options.
	modeIDs, modelIDs []string
	status            *statusLine
	t                 Transcript
	// rows are the transcript's display rows; starts[i] is block i's first.
	rows   []row
	starts []int
	list   *widget.List
	// shownFirst is t.first when the rows were last lined up with t's blocks.
	shownFirst int
	// sampleRow is a row in the transcript's theme, to measure (layout.go).
	sampleRow *denseBox
}

// New makes the pane with command as the command line (the last one used,
// or "" for the first choice's).
func New(command string) *Pane {
	p := &Pane{Command: widget.NewEntry(), Prompt: widget.NewMultiLineEntry(), status: newStatusLine(),
		choices: Known()}
	p.Agent = widget.NewSelect(choiceNames(known), p.choose)
	p.Command.SetPlaceHolder("the agent's command line, e.g. npx @zed-industries/claude-code-acp")
	if command == "" {
		command = known[0].Command
	}
	p.Agent.SetSelected(p.choiceOf(command))
	p.Command.SetText(command)
	p.Command.OnChanged = func(s string) {
		if c := p.choiceOf(s); c != p.Agent.Selected {
			p.Agent.Selected = c
			p.Agent.Refresh()
		}
	}
	p.Prompt.SetPlaceHolder("Ask the agent; what it writes becomes a change set for you to review")
	p.Prompt.Wrapping = fyne.TextWrapWord
	p.Prompt.SetMinRowsVisible(1) // the transcript is what needs the height; the prompt scrolls
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
	p.Agents = widget.NewButton("Agents…", func() {
		if p.OnAgents != nil {
			p.OnAgents()
		}
	})
	p.New = widget.NewButton("New session", func() {
		if p.OnNew != nil {
			p.OnNew()
		}
	})
	p.Earlier = widget.NewSelect(nil, func(string) { enable(p.Resume, p.state == Stopped && p.Earlier.SelectedIndex() >= 0) })
	p.Earlier.PlaceHolder = "(earlier sessions)"
	p.Earlier.Hide()
	p.Resume = widget.NewButton("Resume", func() {
		p.chosen(p.Earlier, p.earlierIDs, p.OnResume)
	})
	p.Resume.Hide()
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
	p.Mode = widget.NewSelect(nil, func(string) { p.chosen(p.Mode, p.modeIDs, p.OnMode) })
	p.Model = widget.NewSelect(nil, func(string) { p.chosen(p.Model, p.modelIDs, p.OnModel) })
	p.Mode.PlaceHolder, p.Model.PlaceHolder = "(mode)", "(model)"
	p.Mode.Hide()
	p.Model.Hide()
	p.Content = p.layout()
	p.SetState(Stopped, "Choose an agent and press Start: it works in a sandboxed copy of the project.")
	return p
}

// choiceOf is the name of the choice whose command line is command.
func (p *Pane) choiceOf(command string) string {
	for _, c := range p.choices {
		if c.Command == strings.TrimSpace(command) && c.Command != "" {
			return c.Name
		}
	}
	return Custom
}

func (p *Pane) choose(name string) {
	for _, c := range p.choices {
		if c.Name == name && c.Command != "" && c.Command != p.Command.Text {
			p.Command.SetText(c.Command)
		}
	}
	if name == Custom && p.Command.Text != "" && p.choiceOf(p.Command.Text) != Custom {
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
	p.status.show(status)
	enable(p.Start, s == Stopped)
	enable(p.Agent, s == Stopped)
	enable(p.Command, s == Stopped)
	enable(p.Stop, s != Stopped)
	enable(p.Send, s == Ready)
	enable(p.Cancel, s == Working)
	enable(p.Mode, s == Ready || s == Working)
	enable(p.Model, s == Ready || s == Working)
	enable(p.Earlier, s == Stopped)
	enable(p.Resume, s == Stopped && p.Earlier.SelectedIndex() >= 0)
	// The earlier sessions show only while they can be resumed: the row of
	// controls then has room for the modes and models.
	p.Earlier.Hidden = s != Stopped || len(p.Earlier.Options) == 0
	p.Resume.Hidden = p.Earlier.Hidden
	if s == Stopped {
		p.SetModes(nil, "")
		p.SetModels(nil, "")
	}
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
		if m := u.CurrentModeUpdate; m != nil {
			p.showMode(string(m.CurrentModeId))
		}
		changed = append(changed, p.t.Apply(u)...)
	}
	p.show(changed)
}

// Terminal shows news of a command the agent runs (see Transcript.Terminal).
func (p *Pane) Terminal(id, command, output string, exit *sdk.TerminalExitStatus) {
	p.show(p.t.Terminal(id, command, output, exit))
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
	// markdown is set for a row of the agent's message outside a code
	// fence: it is shown as markdown, line by line.
	markdown bool
}

// appendRows appends b's rows to rows. An agent message's rows are
// markdown, but for its code fences, whose rows are monospace.
func appendRows(rows []row, b Block) []row {
	style := fyne.TextStyle{Italic: b.Kind == KindThought || b.Kind == KindNote, Bold: b.Kind == KindPrompt}
	fenced := false
	for _, line := range strings.Split(b.String(), "\n") {
		r := row{style: style, markdown: b.Kind == KindMessage}
		if b.Kind == KindMessage {
			fence := strings.HasPrefix(strings.TrimSpace(line), "```")
			if fence {
				fenced = !fenced
			}
			if fence || fenced {
				r.markdown, r.style = false, fyne.TextStyle{Monospace: true}
			}
		}
		runes := textbuf.ExpandTabs(nil, line, textbuf.DefaultTabWidth)
		r.text = string(runes[:min(len(runes), maxRowRunes)])
		rows = append(rows, r)
		for at := maxRowRunes; at < len(runes); at += maxRowRunes {
			r.text = string(runes[at:min(len(runes), at+maxRowRunes)])
			rows = append(rows, r)
		}
	}
	return rows
}

// segments is how r shows: its text in its style, or its markdown.
func (r row) segments() []widget.RichTextSegment {
	if !r.markdown || strings.TrimSpace(r.text) == "" {
		return []widget.RichTextSegment{&widget.TextSegment{Text: r.text,
			Style: widget.RichTextStyle{Inline: true, TextStyle: r.style, SizeName: theme.SizeNameText, ColorName: theme.ColorNameForeground}}}
	}
	return rowSafe(widget.NewRichTextFromMarkdown(r.text).Segments)
}

// rowSafe makes markdown segments fit one row and do nothing by
// themselves: headings become bold text of the row's size, a link shows
// its address and opens nothing, an image is named and never fetched.
func rowSafe(segs []widget.RichTextSegment) []widget.RichTextSegment {
	out := make([]widget.RichTextSegment, 0, len(segs))
	for _, seg := range segs {
		switch s := seg.(type) {
		case *widget.TextSegment:
			st := s.Style
			if st.SizeName != theme.SizeNameText && st.SizeName != "" {
				st.TextStyle.Bold = true
			}
			st.SizeName, st.Inline = theme.SizeNameText, true
			out = append(out, &widget.TextSegment{Text: s.Text, Style: st})
		case *widget.HyperlinkSegment:
			link := s.Text
			if s.URL != nil && s.URL.String() != s.Text {
				link += " <" + s.URL.String() + ">"
			}
			out = append(out, &widget.TextSegment{Text: link, Style: widget.RichTextStyleInline})
		case *widget.ImageSegment:
			out = append(out, &widget.TextSegment{Text: "[image " + s.Title + "]", Style: widget.RichTextStyleInline})
		case *widget.ListSegment:
			out = append(out, &widget.ListSegment{Items: rowSafe(s.Items), Ordered: s.Ordered})
		case *widget.ParagraphSegment:
			out = append(out, &widget.ParagraphSegment{Texts: rowSafe(s.Texts)})
		case *widget.SeparatorSegment:
			out = append(out, &widget.TextSegment{Text: strings.Repeat("─", 20), Style: widget.RichTextStyleInline})
		default:
			out = append(out, &widget.TextSegment{Text: seg.Textual(), Style: widget.RichTextStyleInline})
		}
	}
	return out
}

// newRowList is the list that shows rows, inside a sideways scroll wide
// enough for a whole row.
func (p *Pane) newRowList() fyne.CanvasObject {
	p.list = widget.NewList(
		func() int { return len(p.rows) },
		func() fyne.CanvasObject { return widget.NewRichTextWithText(strings.Repeat("m", maxRowRunes)) },
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id < len(p.rows) {
				t := o.(*widget.RichText)
				t.Segments = p.rows[id].segments()
				t.Refresh()
			}
		},
	)
	p.list.HideSeparators = true
	return container.NewHScroll(p.list)
}
