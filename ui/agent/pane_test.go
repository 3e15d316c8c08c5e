package agent

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

// TestPaneKeys: the keyboard alone runs the pane. Focus gives the command
// line the keys while no session runs and the prompt after; Enter in the
// command line starts; in the prompt Enter adds a line and Shift+Enter
// sends, only once the session is ready.
func TestPaneKeys(t *testing.T) {
	test.NewTempApp(t)
	p := New("scripted-agent")
	w := test.NewWindow(p.Content)
	defer w.Close()
	var started, sent []string
	p.OnStart = func(cmd string) { started = append(started, cmd); p.SetState(Starting, "starting") }
	p.OnSend = func(text string) { sent = append(sent, text) }
	c := w.Canvas()

	if p.Focus() != p.Command {
		t.Fatalf("a stopped pane focuses %T, want the command line", p.Focus())
	}
	c.Focus(p.Focus())
	p.Command.SetText("scripted-agent --flag")
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(started) != 1 || started[0] != "scripted-agent --flag" {
		t.Fatalf("Enter in the command line started %q", started)
	}
	if p.Focus() != p.Prompt {
		t.Fatalf("a starting pane focuses %T, want the prompt", p.Focus())
	}

	c.Focus(p.Focus())
	test.Type(p.Prompt, "work")
	shiftEnter := func() {
		p.Prompt.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
		p.Prompt.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		p.Prompt.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	}
	shiftEnter() // still starting: the prompt waits
	if len(sent) != 0 || p.Prompt.Text != "work" {
		t.Fatalf("Shift+Enter before the session was ready sent %q; the prompt holds %q", sent, p.Prompt.Text)
	}
	p.SetState(Ready, "ready")
	p.Prompt.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(sent) != 0 || p.Prompt.Text != "work\n" {
		t.Fatalf("Enter sent %q; the prompt holds %q, want a new line", sent, p.Prompt.Text)
	}
	shiftEnter()
	if len(sent) != 1 || sent[0] != "work" || p.Prompt.Text != "" {
		t.Fatalf("Shift+Enter sent %q; the prompt holds %q", sent, p.Prompt.Text)
	}
}

// TestPaneStatusOpensWhole: a status too long for its line is cut to one
// line; a tap shows it whole over more lines, taking the room from the
// transcript, and a second tap, or the next status, cuts it again.
func TestPaneStatusOpensWhole(t *testing.T) {
	test.NewTempApp(t)
	p := New("scripted-agent")
	w := test.NewWindow(p.Content)
	defer w.Close()
	w.Resize(fyne.NewSize(500, 400))
	long := "the agent exited before it answered: " + strings.Repeat("a long reason, ", 12) + "the end"
	p.SetState(Stopped, long)
	one, rows := p.status.Size().Height, p.VisibleRows()
	if p.status.Truncation != fyne.TextTruncateEllipsis || fyne.MeasureText(long, 14, fyne.TextStyle{}).Width < p.status.Size().Width {
		t.Fatalf("the status is not cut: %v wide", p.status.Size())
	}
	test.Tap(p.status)
	if p.status.Size().Height < 2*one || p.VisibleRows() >= rows {
		t.Fatalf("tapped, the status is %v high (one line: %v) and the transcript shows %d rows (was %d)",
			p.status.Size().Height, one, p.VisibleRows(), rows)
	}
	test.Tap(p.status)
	if p.status.Size().Height != one || p.VisibleRows() != rows {
		t.Fatalf("tapped again, the status is %v high, want %v; the transcript shows %d rows, want %d",
			p.status.Size().Height, one, p.VisibleRows(), rows)
	}
	test.Tap(p.status)
	p.SetState(Starting, long)
	if p.status.Size().Height != one {
		t.Fatalf("a new status shows %v high, want one line (%v)", p.status.Size().Height, one)
	}
}

// TestPaneEarlierSessionsOnlyWhileStopped: the earlier sessions and
// Resume show while no session runs, and leave the row of controls to the
// agent's modes and models while one does.
func TestPaneEarlierSessionsOnlyWhileStopped(t *testing.T) {
	test.NewTempApp(t)
	p := New("scripted-agent")
	w := test.NewWindow(p.Content)
	defer w.Close()
	p.SetEarlier([]Option{{ID: "1", Name: "yesterday's session"}})
	if !p.Earlier.Visible() || !p.Resume.Visible() {
		t.Fatal("a stopped pane hides its earlier sessions")
	}
	p.SetState(Ready, "ready")
	p.SetModes([]Option{{ID: "ask", Name: "Ask"}}, "ask")
	if p.Earlier.Visible() || p.Resume.Visible() || !p.Mode.Visible() {
		t.Fatalf("while a session runs: earlier shown %v, Resume %v, Mode %v", p.Earlier.Visible(), p.Resume.Visible(), p.Mode.Visible())
	}
	p.SetEarlier([]Option{{ID: "1", Name: "yesterday's session"}, {ID: "2", Name: "today's"}})
	if p.Earlier.Visible() {
		t.Fatal("a new list of earlier sessions shows while a session runs")
	}
	p.SetState(Stopped, "stopped")
	if !p.Earlier.Visible() || !p.Resume.Visible() || p.Mode.Visible() {
		t.Fatalf("stopped again: earlier shown %v, Resume %v, Mode %v", p.Earlier.Visible(), p.Resume.Visible(), p.Mode.Visible())
	}
}
