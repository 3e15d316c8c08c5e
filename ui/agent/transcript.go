package agent

import (
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"trestle/app/changeset"
)

// Limits of a transcript: an agent that streams without end cannot make
// the window hold more than this.
const (
	maxBlocks    = 1000     // oldest blocks go first
	maxBlockText = 64 << 10 // a longer message goes on in a new block
	// maxTerminalText is how much of a command's output its block keeps:
	// the end, as a terminal shows it.
	maxTerminalText = 16 << 10
)

// Kind is what a transcript block shows.
type Kind int

const (
	KindPrompt   Kind = iota // what the person sent
	KindMessage              // the agent's message
	KindThought              // the agent's reasoning
	KindTool                 // a tool call and its status
	KindPlan                 // the agent's plan (each plan replaces the last)
	KindNote                 // Trestle's own line: started, turn ended, change set proposed
	KindTerminal             // a command the agent runs (terminal/*): its output and exit
)

// Block is one entry of the transcript. Its texts are already made safe
// to show (see clean).
type Block struct {
	Kind   Kind
	ID     string // the tool call's id
	Title  string // the tool call's title and kind
	Status string // the tool call's status
	Text   string
}

// String is the block as the pane shows it.
func (b Block) String() string {
	switch b.Kind {
	case KindPrompt:
		return "You: " + b.Text
	case KindThought:
		return "(thinking) " + b.Text
	case KindTool:
		s := fmt.Sprintf("Tool: %s [%s]", b.Title, b.Status)
		if b.Text != "" {
			s += "\n" + b.Text
		}
		return s
	case KindPlan:
		return "Plan:\n" + b.Text
	case KindNote:
		return "— " + b.Text
	case KindTerminal:
		s := fmt.Sprintf("Terminal: $ %s [%s]", b.Title, b.Status)
		if out := strings.TrimSuffix(b.Text, "\n"); out != "" {
			s += "\n  " + strings.ReplaceAll(out, "\n", "\n  ")
		}
		return s
	}
	return b.Text
}

// Transcript folds a session's updates into blocks. The zero value is an
// empty transcript.
type Transcript struct {
	Blocks []Block
	// first is the number of blocks dropped from the front (maxBlocks).
	first int
}

// Apply folds one update in and returns the indexes (into Blocks, after
// any dropping) of the blocks it changed or added.
func (t *Transcript) Apply(u sdk.SessionUpdate) []int {
	switch {
	case u.UserMessageChunk != nil: // a resumed session's history
		return t.stream(KindPrompt, u.UserMessageChunk.Content)
	case u.AgentMessageChunk != nil:
		return t.stream(KindMessage, u.AgentMessageChunk.Content)
	case u.AgentThoughtChunk != nil:
		return t.stream(KindThought, u.AgentThoughtChunk.Content)
	case u.ToolCall != nil:
		c := u.ToolCall
		return t.add(Block{Kind: KindTool, ID: string(c.ToolCallId), Title: toolTitle(c.Title, string(c.Kind)),
			Status: statusOr(string(c.Status)), Text: toolContent(c.Content, c.Locations)})
	case u.ToolCallUpdate != nil:
		return t.updateTool(u.ToolCallUpdate)
	case u.Plan != nil:
		return t.plan(u.Plan.Entries)
	}
	return nil
}

// Add appends a block of kind with text (cleaned here) and returns its index.
func (t *Transcript) Add(kind Kind, text string) []int {
	return t.add(Block{Kind: kind, Text: clean(text, true)})
}

func (t *Transcript) add(b Block) []int {
	t.Blocks = append(t.Blocks, b)
	if over := len(t.Blocks) - maxBlocks; over > 0 {
		t.Blocks = append(t.Blocks[:0:0], t.Blocks[over:]...)
		t.first += over
	}
	return []int{len(t.Blocks) - 1}
}

// stream appends a message or thought chunk to the last block when it is
// of the same kind and not full, else starts a block.
func (t *Transcript) stream(kind Kind, c sdk.ContentBlock) []int {
	text := contentText(c)
	if text == "" {
		return nil
	}
	if n := len(t.Blocks); n > 0 && t.Blocks[n-1].Kind == kind && len(t.Blocks[n-1].Text)+len(text) <= maxBlockText {
		t.Blocks[n-1].Text += text
		return []int{n - 1}
	}
	return t.add(Block{Kind: kind, Text: limit(text)})
}

// updateTool changes the tool call's block, or adds one for an id never
// announced.
func (t *Transcript) updateTool(u *sdk.SessionToolCallUpdate) []int {
	i := t.tool(string(u.ToolCallId))
	if i < 0 {
		idx := t.add(Block{Kind: KindTool, ID: string(u.ToolCallId), Title: Short(string(u.ToolCallId), MaxTitleRunes), Status: "pending"})
		i = idx[0]
	}
	b := &t.Blocks[i]
	if u.Title != nil {
		kind := ""
		if u.Kind != nil {
			kind = string(*u.Kind)
		}
		b.Title = toolTitle(*u.Title, kind)
	}
	if u.Status != nil {
		b.Status = statusOr(string(*u.Status))
	}
	if u.Content != nil || u.Locations != nil {
		b.Text = toolContent(u.Content, u.Locations)
	}
	return []int{i}
}

// Terminal folds in news of the command the agent runs in terminal id:
// command when it starts, output as it comes, exit when it has ended. The
// block keeps the end of the output (maxTerminalText).
func (t *Transcript) Terminal(id, command, output string, exit *sdk.TerminalExitStatus) []int {
	i := t.find(KindTerminal, id)
	if i < 0 || command != "" {
		i = t.add(Block{Kind: KindTerminal, ID: id, Title: Short(command, MaxTitleRunes), Status: "running"})[0]
	}
	b := &t.Blocks[i]
	if output != "" {
		b.Text = tail(b.Text+clean(output, true), maxTerminalText)
	}
	if exit != nil {
		b.Status = exitText(exit)
	}
	return []int{i}
}

// exitText is how a command ended.
func exitText(e *sdk.TerminalExitStatus) string {
	switch {
	case e.Signal != nil:
		return "killed by " + Short(*e.Signal, MaxWordRunes)
	case e.ExitCode != nil:
		return fmt.Sprintf("exit %d", *e.ExitCode)
	}
	return "ended"
}

// tail is the last max bytes of s, cut at a line or else a character boundary.
func tail(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := len(s) - max
	if nl := strings.IndexByte(s[cut:], '\n'); nl >= 0 {
		return s[cut+nl+1:]
	}
	for cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut++
	}
	return s[cut:]
}

// tool is the index of the tool call id's block, newest first, or -1.
func (t *Transcript) tool(id string) int { return t.find(KindTool, id) }

// find is the index of the newest block of kind with id, or -1.
func (t *Transcript) find(kind Kind, id string) int {
	for i := len(t.Blocks) - 1; i >= 0; i-- {
		if t.Blocks[i].Kind == kind && t.Blocks[i].ID == id {
			return i
		}
	}
	return -1
}

// plan shows entries in the plan's block: the last one when no message
// came after it, else a new one.
func (t *Transcript) plan(entries []sdk.PlanEntry) []int {
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "  [%s] %s\n", Short(string(e.Status), MaxWordRunes), clean(e.Content, false))
	}
	text := limit(strings.TrimSuffix(b.String(), "\n"))
	if n := len(t.Blocks); n > 0 && t.Blocks[n-1].Kind == KindPlan {
		t.Blocks[n-1].Text = text
		return []int{n - 1}
	}
	return t.add(Block{Kind: KindPlan, Text: text})
}

// String is the whole transcript, a block a paragraph.
func (t *Transcript) String() string {
	parts := make([]string, len(t.Blocks))
	for i, b := range t.Blocks {
		parts[i] = b.String()
	}
	return strings.Join(parts, "\n")
}

func toolTitle(title, kind string) string {
	title = Short(title, MaxTitleRunes)
	if kind != "" {
		title += " (" + Short(kind, MaxWordRunes) + ")"
	}
	return title
}

func statusOr(s string) string {
	if s == "" {
		return "pending"
	}
	return Short(s, MaxWordRunes)
}

// toolContent is what a tool call shows besides its title: the files it
// touches and, shortly, its content.
func toolContent(content []sdk.ToolCallContent, locs []sdk.ToolCallLocation) string {
	var lines []string
	for _, l := range locs {
		lines = append(lines, "  at "+clean(l.Path, false))
	}
	for _, c := range content {
		switch {
		case c.Diff != nil:
			lines = append(lines, "  edits "+clean(c.Diff.Path, false))
		case c.Terminal != nil:
			lines = append(lines, "  runs in terminal "+clean(c.Terminal.TerminalId, false))
		case c.Content != nil:
			if text := contentText(c.Content.Content); text != "" {
				lines = append(lines, "  "+strings.ReplaceAll(strings.TrimSpace(text), "\n", "\n  "))
			}
		}
	}
	return limit(strings.Join(lines, "\n"))
}

// contentText is a content block's text, cleaned; other content is named.
func contentText(c sdk.ContentBlock) string {
	switch {
	case c.Text != nil:
		return clean(c.Text.Text, true)
	case c.Image != nil:
		return "[image]"
	case c.ResourceLink != nil:
		return "[resource " + clean(c.ResourceLink.Uri, false) + "]"
	}
	return ""
}

// clean makes agent text safe to show as plain text: control, bidi and
// invisible characters become escapes, newlines and tabs stay when
// multiline.
func clean(s string, multiline bool) string {
	keep := ""
	if multiline {
		keep = "\n\t"
	}
	return changeset.EscapeControls(s, keep)
}

// Lengths of the agent's one-line strings as shown: a longer one is cut,
// with "…", so that no agent string widens a row, a button or a dialog.
const (
	MaxTitleRunes = 160 // a tool call's or a request's title, an agent's name
	MaxWordRunes  = 40  // a kind, a status, an option's or a mode's name
)

// Short is s on one line made safe to show (see clean), cut to at most
// max characters. Safe for concurrent use.
func Short(s string, max int) string {
	s = clean(s, false)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}

// limit cuts s to maxBlockText bytes, at a rune boundary.
func limit(s string) string {
	if len(s) <= maxBlockText {
		return s
	}
	cut := maxBlockText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
