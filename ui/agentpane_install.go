package ui

// A known agent whose program is missing: Start says how to get it, and
// offers to install it where Trestle can (Gemini CLI through npm), on the
// person's consent, with the install's output in the pane.

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app/acp"
	"trestle/app/changeset"
	"trestle/app/procgroup"
	"trestle/ui/agent"
)

// agentInstallBound is how long an agent's install may take: npm
// downloads the package and its dependencies.
const agentInstallBound = 10 * time.Minute

// missingProgram is the program a known agent's command line runs, when
// it is not on PATH. Custom command lines are not checked: they may be
// any shell line, and a failed start says what went wrong.
func missingProgram(command string) (agent.Choice, string, bool) {
	c, known := agent.ChoiceFor(command)
	if !known {
		return c, "", false
	}
	prog := strings.Fields(c.Command)[0]
	if _, err := exec.LookPath(prog); err == nil {
		return c, "", false
	}
	return c, prog, true
}

// offerInstall says that c's program prog is missing and how to get it,
// and offers to install it when its installer is there. Main goroutine only.
func (h *agentHost) offerInstall(c agent.Choice, prog string) {
	if len(c.Install) == 0 || !onPath(c.Install[0]) {
		h.pane.Note(fmt.Sprintf("%s needs %s, which is not installed: %s.", c.Name, prog, c.Missing))
		h.pane.SetState(agent.Stopped, prog+" is not installed; see above.")
		return
	}
	line := strings.Join(c.Install, " ")
	msg := widget.NewLabel(fmt.Sprintf("%s needs %s, which is not installed. Install it now with\n\n    %s\n\n"+
		"It runs outside the sandbox, as you, and downloads the package from its registry.", c.Name, prog, line))
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm("Install "+c.Name, "Install", "Cancel", msg, func(ok bool) {
		if ok && h.pane.State() == agent.Stopped {
			h.install(c, prog)
		}
	}, h.w.win)
	d.Resize(fyne.NewSize(560, 300))
	h.w.dialogs.show(d)
}

// install runs c's installer off the main goroutine, its output in the
// pane, and starts the agent when prog is then on PATH. Main goroutine only.
func (h *agentHost) install(c agent.Choice, prog string) {
	h.pane.SetState(agent.Starting, "Installing "+c.Name+"…")
	h.turns.Go(func() {
		ctx, cancel := context.WithTimeout(h.life, agentInstallBound)
		defer cancel()
		id := "install " + c.Name
		h.queueNews(news{term: &acp.TerminalEvent{ID: id, Command: strings.Join(c.Install, " ")}})
		cmd := exec.CommandContext(ctx, c.Install[0], c.Install[1:]...)
		procgroup.Set(cmd)
		cmd.Cancel = func() error { return procgroup.Kill(cmd) }
		out := &newsWriter{h: h, id: id}
		cmd.Stdout, cmd.Stderr = out, out
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		h.queueNews(news{term: &acp.TerminalEvent{ID: id, Exit: &acpsdk.TerminalExitStatus{ExitCode: &code}}})
		h.do(func() {
			switch {
			case err == nil && onPath(prog):
				h.startWith(c.Command, false)
			case err == nil:
				h.pane.Note(fmt.Sprintf("The install ended, but %s is still not on PATH: add npm's folder of programs (npm prefix -g, then bin) to PATH.", prog))
				h.pane.SetState(agent.Stopped, c.Name+" is not installed; see above.")
			default:
				h.pane.Note("The install failed: " + changeset.EscapeControls(err.Error(), ""))
				h.pane.SetState(agent.Stopped, c.Name+" is not installed; see above.")
			}
		})
	})
}

func onPath(prog string) bool {
	_, err := exec.LookPath(prog)
	return err == nil
}

// newsWriter hands an install's output to the pane as a terminal's.
type newsWriter struct {
	h  *agentHost
	id string
}

func (w *newsWriter) Write(p []byte) (int, error) {
	w.h.queueNews(news{term: &acp.TerminalEvent{ID: w.id, Output: string(p)}})
	return len(p), nil
}
