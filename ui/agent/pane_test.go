package agent

import (
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
