package agent

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	sdk "github.com/coder/acp-go-sdk"
)

func TestTranscriptFoldsUpdates(t *testing.T) {
	tests := []struct {
		name    string
		updates []sdk.SessionUpdate
		want    string
	}{
		{"chunks of one message join",
			[]sdk.SessionUpdate{sdk.UpdateAgentMessageText("Hel"), sdk.UpdateAgentMessageText("lo\nworld")},
			"Hello\nworld"},
		{"a thought between messages starts new blocks",
			[]sdk.SessionUpdate{sdk.UpdateAgentMessageText("a"), sdk.UpdateAgentThoughtText("hmm"), sdk.UpdateAgentMessageText("b")},
			"a\n(thinking) hmm\nb"},
		{"a tool call's status follows its updates",
			[]sdk.SessionUpdate{
				sdk.StartToolCall("c1", "Write a.go", sdk.WithStartKind(sdk.ToolKindEdit), sdk.WithStartStatus(sdk.ToolCallStatusInProgress)),
				sdk.UpdateAgentMessageText("meanwhile"),
				sdk.UpdateToolCall("c1", sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted)),
			},
			"Tool: Write a.go (edit) [completed]\nmeanwhile"},
		{"a plan replaces the plan before it",
			[]sdk.SessionUpdate{
				sdk.UpdatePlan(sdk.PlanEntry{Content: "one", Status: sdk.PlanEntryStatusInProgress}),
				sdk.UpdatePlan(sdk.PlanEntry{Content: "one", Status: sdk.PlanEntryStatusCompleted}, sdk.PlanEntry{Content: "two", Status: sdk.PlanEntryStatusPending}),
			},
			"Plan:\n  [completed] one\n  [pending] two"},
		{"control and bidi characters are escaped",
			[]sdk.SessionUpdate{sdk.UpdateAgentMessageText("ok\x1b[2J\u202egnp.exe\r"), sdk.StartToolCall("c2", "rm\x07 -rf")},
			"ok\\x1b[2J\\u202egnp.exe\\r\nTool: rm\\x07 -rf [pending]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tr Transcript
			for _, u := range tt.updates {
				tr.Apply(u)
			}
			if got := tr.String(); got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestTranscriptIsBounded: an agent that streams without end cannot make
// the pane hold more than maxBlocks blocks of maxBlockText bytes.
func TestTranscriptIsBounded(t *testing.T) {
	var tr Transcript
	chunk := strings.Repeat("x", 1000)
	for range 200 {
		tr.Apply(sdk.UpdateAgentMessageText(chunk))
	}
	for _, b := range tr.Blocks {
		if len(b.Text) > maxBlockText {
			t.Fatalf("a block holds %d bytes, more than %d", len(b.Text), maxBlockText)
		}
	}
	for i := range maxBlocks + 10 {
		tr.Add(KindNote, strings.Repeat("n", i%7))
	}
	if len(tr.Blocks) != maxBlocks {
		t.Errorf("%d blocks, want the newest %d", len(tr.Blocks), maxBlocks)
	}
}

// TestPaneShowsTheTranscriptAndDropsOldRows: the pane's rows follow the
// transcript, also once it drops its oldest blocks, and a long line goes
// on in the next row.
func TestPaneShowsTheTranscriptAndDropsOldRows(t *testing.T) {
	test.NewTempApp(t)
	p := New("")
	if p.Agent.Selected != Known()[0].Name || p.Command.Text != Known()[0].Command {
		t.Errorf("a new pane offers %q %q", p.Agent.Selected, p.Command.Text)
	}
	p.Agent.SetSelected("Codex")
	if p.Command.Text != "npx @zed-industries/codex-acp" {
		t.Errorf("choosing Codex set the command line %q", p.Command.Text)
	}
	p.Update([]sdk.SessionUpdate{sdk.UpdateAgentMessageText(strings.Repeat("y", maxRowRunes+5))})
	if len(p.rows) != 2 || p.rows[1].text != "yyyyy" {
		t.Fatalf("a long line shows as %+v", p.rows)
	}
	for i := range maxBlocks + 5 {
		p.Note(strings.Repeat("n", i%3))
	}
	var want []row
	for _, b := range p.t.Blocks {
		want = appendRows(want, b)
	}
	if !slices.Equal(p.rows, want) {
		t.Fatalf("%d rows shown, the blocks make %d", len(p.rows), len(want))
	}
	if len(p.starts) != maxBlocks {
		t.Errorf("%d block starts, want %d", len(p.starts), maxBlocks)
	}
}

// TestTranscriptTerminalKeepsTheEndOfItsOutput: a command's block keeps
// the end of a long output, escaped, and says how the command ended.
func TestTranscriptTerminalKeepsTheEndOfItsOutput(t *testing.T) {
	var tr Transcript
	tr.Terminal("term-1", "sh -c yes", "", nil)
	for i := range 5000 {
		tr.Terminal("term-1", "", fmt.Sprintf("line %d\x1b[K\n", i), nil)
	}
	code := 3
	tr.Terminal("term-1", "", "", &sdk.TerminalExitStatus{ExitCode: &code})
	if len(tr.Blocks) != 1 {
		t.Fatalf("%d blocks, want 1", len(tr.Blocks))
	}
	b := tr.Blocks[0]
	if len(b.Text) > maxTerminalText || !strings.HasSuffix(b.Text, "line 4999\\x1b[K\n") || strings.Contains(b.Text, "line 0\\") {
		t.Errorf("the block keeps %d bytes ending %q", len(b.Text), b.Text[max(0, len(b.Text)-40):])
	}
	if !strings.HasPrefix(b.String(), "Terminal: $ sh -c yes [exit 3]\n  line ") {
		t.Errorf("the block reads %q", b.String()[:60])
	}
}

// TestPaneShowsMessagesAsMarkdown: the agent's message shows as markdown
// (a heading bold, emphasis, a list), its code fences monospace, and its
// links and images as text: nothing in it opens a page or fetches an
// image. A person's prompt and Trestle's notes stay plain text.
func TestPaneShowsMessagesAsMarkdown(t *testing.T) {
	test.NewTempApp(t)
	p := New("")
	p.Note("**not markdown**")
	p.Update([]sdk.SessionUpdate{sdk.UpdateAgentMessageText("# Title\nsome **bold** text\n- an item\n" +
		"see [the docs](https://example.com/x) and ![logo](https://example.com/logo.png)\n```go\n**x** := 1\n```\n")})
	shown := make([]*widget.RichText, len(p.rows))
	for i := range p.rows {
		shown[i] = widget.NewRichText()
		p.list.UpdateItem(i, shown[i])
	}
	var texts []string
	for _, rt := range shown {
		var walk func([]widget.RichTextSegment)
		walk = func(segs []widget.RichTextSegment) {
			for _, s := range segs {
				switch s := s.(type) {
				case *widget.HyperlinkSegment, *widget.ImageSegment:
					t.Errorf("the pane shows a %T: %+v", s, s)
				case *widget.ListSegment:
					walk(s.Items)
				case *widget.ParagraphSegment:
					walk(s.Texts)
				}
			}
		}
		walk(rt.Segments)
		texts = append(texts, rt.String())
	}
	style := func(row int, text string) (fyne.TextStyle, bool) {
		for _, s := range shown[row].Segments {
			if ts, ok := s.(*widget.TextSegment); ok && ts.Text == text {
				return ts.Style.TextStyle, true
			}
		}
		return fyne.TextStyle{}, false
	}
	if st, ok := style(0, "— **not markdown**"); !ok || st.Bold {
		t.Errorf("the note shows as %q (%+v)", texts[0], st)
	}
	if st, ok := style(1, "Title"); !ok || !st.Bold {
		t.Errorf("the heading shows as %q (%+v)", texts[1], st)
	}
	if st, ok := style(2, "bold"); !ok || !st.Bold {
		t.Errorf("the emphasis shows as %q", texts[2])
	}
	if !strings.Contains(texts[4], "the docs <https://example.com/x>") || !strings.Contains(texts[4], "[image ") {
		t.Errorf("the link and image show as %q", texts[4])
	}
	if st, ok := style(6, "**x** := 1"); !ok || !st.Monospace {
		t.Errorf("the code fence shows as %q (%+v)", texts[6], st)
	}
}
