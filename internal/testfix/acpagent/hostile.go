package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	acp "github.com/coder/acp-go-sdk"
)

// The hostile turn: what the scripted agent tries against the client
// and the project (hostile text, shell commands, escapes, a lingering
// process).

// hostileText is what a hostile agent puts in every string a client may
// show: escapes that clear a terminal and retitle it, a newline, a bidi
// override, and a run of n characters.
func hostileText(s string, n int) string {
	return s + "\x1b[2J\x1b]0;owned\x07\nsecond line\u202e" + strings.Repeat("W", n)
}

// hostile sends a plan, a tool call and a permission request made of
// hostile strings, and says the answer.
func (t *turn) hostile() {
	c := t.a.conn
	c.SessionUpdate(t.ctx, acp.SessionNotification{SessionId: t.sid, Update: acp.UpdatePlan(
		acp.PlanEntry{Content: hostileText("plan entry", 500), Priority: acp.PlanEntryPriority(hostileText("high", 50)),
			Status: acp.PlanEntryStatus(hostileText("pending", 300))},
	)})
	kind := acp.ToolKind(hostileText("edit", 300))
	c.SessionUpdate(t.ctx, acp.SessionNotification{SessionId: t.sid, Update: acp.StartToolCall("call-h", hostileText("tool title", 500),
		acp.WithStartKind(kind), acp.WithStartStatus(acp.ToolCallStatus(hostileText("running", 300))))})
	perm, err := c.RequestPermission(t.ctx, acp.RequestPermissionRequest{SessionId: t.sid,
		ToolCall: acp.ToolCallUpdate{ToolCallId: "call-h", Title: acp.Ptr(hostileText("ask title", 500)), Kind: &kind},
		Options: []acp.PermissionOption{
			{Kind: acp.PermissionOptionKind(hostileText("allow_once", 400)), Name: hostileText("Allow", 400), OptionId: "allow"},
			{Kind: acp.PermissionOptionKindRejectOnce, Name: hostileText("Reject", 400), OptionId: "reject"},
		}})
	switch {
	case err != nil:
		t.say("permission: error: " + err.Error())
	case perm.Outcome.Selected != nil:
		t.say("permission: " + string(perm.Outcome.Selected.OptionId) + "ed")
	default:
		t.say("permission: cancelled")
	}
}

// shell runs script in a terminal in the working folder and returns its exit code and output.
func (t *turn) shell(script string) (int, string, error) {
	c := t.a.conn
	term, err := c.CreateTerminal(t.ctx, acp.CreateTerminalRequest{SessionId: t.sid, Command: "sh", Args: []string{"-c", script}, Cwd: &t.cwd})
	if err != nil {
		return -1, "", err
	}
	defer c.ReleaseTerminal(t.ctx, acp.ReleaseTerminalRequest{SessionId: t.sid, TerminalId: term.TerminalId})
	exit, err := c.WaitForTerminalExit(t.ctx, acp.WaitForTerminalExitRequest{SessionId: t.sid, TerminalId: term.TerminalId})
	if err != nil {
		return -1, "", err
	}
	out, err := c.TerminalOutput(t.ctx, acp.TerminalOutputRequest{SessionId: t.sid, TerminalId: term.TerminalId})
	if err != nil {
		return -1, "", err
	}
	code := -1
	if exit.ExitCode != nil {
		code = *exit.ExitCode
	}
	return code, out.Output, nil
}

// escapes tries to write the real project every way it can.
func (t *turn) escapes() {
	project := os.Getenv("TRESTLE_TEST_PROJECT")
	if project == "" {
		t.say("escape: no project named")
		return
	}
	c := t.a.conn
	fsWrite := func(path string) error {
		_, err := c.WriteTextFile(t.ctx, acp.WriteTextFileRequest{SessionId: t.sid, Path: path, Content: "package evil\n"})
		return err
	}
	report := func(name string, err error) {
		if err != nil {
			t.say("escape " + name + ": refused: " + err.Error())
		} else {
			t.say("escape " + name + ": WROTE")
		}
	}
	report("fs-absolute", fsWrite(filepath.Join(project, "evil.go")))
	report("fs-dotdot", fsWrite(t.cwd+"/../"+filepath.Base(t.cwd)+"/../evil.go"))
	link := filepath.Join(t.cwd, "link")
	if err := os.Symlink(project, link); err != nil {
		t.say("escape: plant symlink: " + err.Error())
	}
	report("fs-symlink", fsWrite(filepath.Join(link, "evil.go")))
	report("disk-absolute", os.WriteFile(filepath.Join(project, "evil.go"), []byte("package evil\n"), 0o644))
	report("disk-symlink", os.WriteFile(filepath.Join(link, "evil2.go"), []byte("package evil\n"), 0o644))
	os.Remove(link)
	code, out, err := t.shell("echo package evil > '" + filepath.Join(project, "evil.go") + "'")
	if err == nil && code != 0 {
		err = fmt.Errorf("exit %d: %s", code, strings.TrimSpace(out))
	}
	report("shell-absolute", err)
	// A hard link to a project file would share its bytes: linking across
	// the sandbox's mounts must fail.
	code, out, err = t.shell("ln '" + filepath.Join(project, "p.go") + "' hardlink.go && echo package evil >> hardlink.go")
	if err == nil && code != 0 {
		err = fmt.Errorf("exit %d: %s", code, strings.TrimSpace(out))
	}
	report("shell-hardlink", err)
	os.Remove(filepath.Join(t.cwd, "hardlink.go"))
	// Trestle's registry of windows holds their tokens: with one, the agent
	// could attach to a window and run code outside the sandbox.
	if reg := os.Getenv("TRESTLE_TEST_REGISTRY"); reg != "" {
		entries, err := os.ReadDir(reg)
		if err == nil && len(entries) > 0 {
			t.say("escape read-registry: READ " + entries[0].Name())
		} else {
			t.say(fmt.Sprintf("escape read-registry: refused: %d entries, %v", len(entries), err))
		}
	}
}

// linger starts a process of its own session that outlives the turn.
func linger() {
	cmd := exec.Command(os.Args[0], "linger", os.Getenv("TRESTLE_TEST_MARKER"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Start()
}
