// Command acpagent is a scripted ACP agent for Trestle's tests, built with
// the ACP Go SDK. Its prompt names a script:
//
//   - "work": writes a.go through fs/write_text_file, b.go directly on
//     disk and c.go through a shell command in a terminal; asks permission
//     once and reports the answer; streams messages and a plan, and the MCP
//     servers session/new named ("mcp server NAME: COMMAND ARGS"); tries
//     every way out of its working folder into the real project (named by
//     $TRESTLE_TEST_PROJECT) and reports each as "escape NAME: refused" or
//     "escape NAME: WROTE"; and leaves a process behind (setsid, with
//     $TRESTLE_TEST_MARKER in its command line) for the host to clean up.
//   - "read": reads p.go through fs/read_text_file and says "read: TEXT".
//   - "ask": asks permission once and says "permission: allowed" or "rejected".
//   - "hang": leaves such a process behind and waits for session/cancel.
//   - "term": runs a command in a terminal that prints to stdout and
//     stderr and leaves a process of its own session behind (with
//     $TRESTLE_TEST_MARKER-term in its command line), kills the terminal
//     once that process runs, and says "terminal killed: STATUS".
//   - "edit": writes lib/lib.go through fs/write_text_file.
//   - "which": says "mode: ID model: ID" (session/new offers the modes
//     ask and code, and the models fast and smart), then switches itself
//     back to the mode ask (current_mode_update).
//   - "stream N": streams one message in N chunks, "c0000" to "c<N-1>"
//     each followed by a space, or by a newline after every tenth, a
//     chunk a millisecond, as a model streams its tokens.
//   - "hostile": sends a plan, a tool call and a permission request whose
//     every string (titles, kinds, statuses, option names) holds terminal
//     escapes, a newline, a bidi override and runs on for hundreds of
//     characters; says "permission: ..." with the answer.
//
// It is a test fixture: never a model, never the network.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "linger" {
		if len(os.Args) > 3 { // a file that says it runs
			os.WriteFile(os.Args[3], nil, 0o644)
		}
		time.Sleep(time.Hour) // a process left behind, until killed (select{} would die as a deadlock)
		return
	}
	a := &agent{}
	conn := acp.NewAgentSideConnection(a, os.Stdout, os.Stdin)
	a.conn = conn
	<-conn.Done()
}

type agent struct {
	conn *acp.AgentSideConnection

	mu      sync.Mutex
	cwd     string
	servers []string // the MCP servers session/new named
	cancel  context.CancelFunc
	mode    string
	model   string
}

func (a *agent) Initialize(ctx context.Context, p acp.InitializeRequest) (acp.InitializeResponse, error) {
	return acp.InitializeResponse{ProtocolVersion: acp.ProtocolVersionNumber, AuthMethods: []acp.AuthMethod{},
		AgentCapabilities: acp.AgentCapabilities{LoadSession: true},
		AgentInfo:         &acp.Implementation{Name: "scripted-agent", Version: "1"}}, nil
}

func (a *agent) Authenticate(ctx context.Context, p acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, nil
}

func (a *agent) NewSession(ctx context.Context, p acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	a.mu.Lock()
	a.cwd = p.Cwd
	a.servers = nil
	for _, s := range p.McpServers {
		if s.Stdio != nil {
			a.servers = append(a.servers, s.Stdio.Name+": "+filepath.Base(s.Stdio.Command)+" "+strings.Join(s.Stdio.Args, " "))
		}
	}
	a.mode, a.model = "ask", "fast"
	a.mu.Unlock()
	return acp.NewSessionResponse{SessionId: "scripted-1",
		Modes: &acp.SessionModeState{CurrentModeId: "ask", AvailableModes: []acp.SessionMode{
			{Id: "ask", Name: "Ask"}, {Id: "code", Name: "Code"}}},
		Models: &acp.SessionModelState{CurrentModelId: "fast", AvailableModels: []acp.ModelInfo{
			{ModelId: "fast", Name: "Fast model"}, {ModelId: "smart", Name: "Smart model"}}},
	}, nil
}

// LoadSession resumes a session: it replays a prompt and says "resumed ID".
func (a *agent) LoadSession(ctx context.Context, p acp.LoadSessionRequest) (acp.LoadSessionResponse, error) {
	if _, err := a.NewSession(ctx, acp.NewSessionRequest{Cwd: p.Cwd, McpServers: p.McpServers}); err != nil {
		return acp.LoadSessionResponse{}, err
	}
	a.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: p.SessionId, Update: acp.UpdateUserMessageText("an earlier prompt")})
	a.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: p.SessionId, Update: acp.UpdateAgentMessageText("resumed " + string(p.SessionId) + "\n")})
	return acp.LoadSessionResponse{}, nil
}

func (a *agent) Cancel(ctx context.Context, p acp.CancelNotification) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cancel != nil {
		a.cancel()
	}
	return nil
}

func (a *agent) Prompt(_ context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	script := ""
	for _, b := range p.Prompt {
		if b.Text != nil {
			script += b.Text.Text
		}
	}
	a.mu.Lock()
	a.cancel = cancel
	t := &turn{a: a, ctx: ctx, sid: p.SessionId, cwd: a.cwd, servers: a.servers}
	a.mu.Unlock()
	var err error
	script = strings.TrimSpace(script)
	if n, ok := strings.CutPrefix(script, "stream "); ok {
		script = "stream"
		t.stream(n)
	}
	switch script {
	case "stream":
	case "work":
		err = t.work()
	case "read":
		resp, err := t.a.conn.ReadTextFile(ctx, acp.ReadTextFileRequest{SessionId: p.SessionId, Path: filepath.Join(t.cwd, "p.go")})
		if err != nil {
			t.say("read: error: " + err.Error())
		} else {
			t.say("read: " + resp.Content)
		}
	case "ask":
		t.ask()
	case "term":
		t.term()
	case "edit":
		if _, err := t.a.conn.WriteTextFile(ctx, acp.WriteTextFileRequest{SessionId: p.SessionId,
			Path: filepath.Join(t.cwd, "lib", "lib.go"), Content: "package lib\n\n// the agent's\n"}); err != nil {
			t.say("edit: error: " + err.Error())
		} else {
			t.say("edit: wrote lib/lib.go")
		}
	case "which":
		a.mu.Lock()
		mode, model := a.mode, a.model
		a.mode = "ask"
		a.mu.Unlock()
		t.say("mode: " + mode + " model: " + model)
		a.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: p.SessionId, Update: acp.SessionUpdate{
			CurrentModeUpdate: &acp.SessionCurrentModeUpdate{CurrentModeId: "ask"}}})
	case "hostile":
		t.hostile()
	case "hang":
		linger()
		t.say("waiting for cancel")
		<-ctx.Done()
	default:
		t.say("unknown script " + script)
	}
	if ctx.Err() != nil {
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	}
	if err != nil {
		return acp.PromptResponse{}, err
	}
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

type turn struct {
	a       *agent
	ctx     context.Context
	sid     acp.SessionId
	cwd     string
	servers []string
}

// stream sends the message of the script "stream N" in N chunks.
func (t *turn) stream(count string) {
	n, err := strconv.Atoi(count)
	if err != nil {
		t.say("stream: " + err.Error())
		return
	}
	for i := range n {
		sep := " "
		if i%10 == 9 {
			sep = "\n"
		}
		t.a.conn.SessionUpdate(t.ctx, acp.SessionNotification{SessionId: t.sid, Update: acp.UpdateAgentMessageText(fmt.Sprintf("c%04d%s", i, sep))})
		time.Sleep(time.Millisecond)
	}
}

func (t *turn) say(text string) {
	t.a.conn.SessionUpdate(t.ctx, acp.SessionNotification{SessionId: t.sid, Update: acp.UpdateAgentMessageText(text + "\n")})
}

func (t *turn) work() error {
	c := t.a.conn
	c.SessionUpdate(t.ctx, acp.SessionNotification{SessionId: t.sid, Update: acp.UpdatePlan(
		acp.PlanEntry{Content: "write a.go, b.go and c.go", Priority: acp.PlanEntryPriorityHigh, Status: acp.PlanEntryStatusInProgress},
		acp.PlanEntry{Content: "try to escape", Priority: acp.PlanEntryPriorityLow, Status: acp.PlanEntryStatusPending},
	)})
	for _, s := range t.servers {
		t.say("mcp server " + s)
	}
	t.say("writing three files")
	c.SessionUpdate(t.ctx, acp.SessionNotification{SessionId: t.sid, Update: acp.StartToolCall("call-a", "Write a.go",
		acp.WithStartKind(acp.ToolKindEdit), acp.WithStartStatus(acp.ToolCallStatusInProgress))})
	if _, err := c.WriteTextFile(t.ctx, acp.WriteTextFileRequest{SessionId: t.sid, Path: filepath.Join(t.cwd, "a.go"),
		Content: "package p\n\nconst A = 1\n"}); err != nil {
		return fmt.Errorf("write a.go: %w", err)
	}
	c.SessionUpdate(t.ctx, acp.SessionNotification{SessionId: t.sid, Update: acp.UpdateToolCall("call-a",
		acp.WithUpdateStatus(acp.ToolCallStatusCompleted))})
	if err := os.WriteFile(filepath.Join(t.cwd, "b.go"), []byte("package p\n\nconst B = 2\n"), 0o644); err != nil {
		return fmt.Errorf("write b.go: %w", err)
	}
	if code, out, err := t.shell("printf 'package p\\n\\nconst C = 3\\n' > c.go && echo wrote c.go"); err != nil || code != 0 {
		return fmt.Errorf("write c.go: exit %d: %s: %v", code, out, err)
	}
	t.ask()
	t.escapes()
	linger()
	t.say("done")
	return nil
}

// ask requests permission once and says the answer.
func (t *turn) ask() {
	c := t.a.conn
	perm, err := c.RequestPermission(t.ctx, acp.RequestPermissionRequest{SessionId: t.sid,
		ToolCall: acp.ToolCallUpdate{ToolCallId: "call-rm", Title: acp.Ptr("Delete go.mod")},
		Options: []acp.PermissionOption{
			{Kind: acp.PermissionOptionKindAllowOnce, Name: "Allow", OptionId: "allow"},
			{Kind: acp.PermissionOptionKindRejectOnce, Name: "Reject", OptionId: "reject"},
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

// term runs a command that leaves a process behind in a terminal, and
// kills the terminal once that process runs.
func (t *turn) term() {
	c := t.a.conn
	script := fmt.Sprintf("echo out-line; echo err-line >&2; setsid '%s' linger '%s-term' lingering & wait",
		os.Args[0], os.Getenv("TRESTLE_TEST_MARKER"))
	term, err := c.CreateTerminal(t.ctx, acp.CreateTerminalRequest{SessionId: t.sid, Command: "sh", Args: []string{"-c", script}, Cwd: &t.cwd})
	if err != nil {
		t.say("terminal: error: " + err.Error())
		return
	}
	defer c.ReleaseTerminal(t.ctx, acp.ReleaseTerminalRequest{SessionId: t.sid, TerminalId: term.TerminalId})
	flag := filepath.Join(t.cwd, "lingering")
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(flag); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.say("terminal: the process never ran")
			return
		}
	}
	os.Remove(flag)
	if _, err := c.KillTerminal(t.ctx, acp.KillTerminalRequest{SessionId: t.sid, TerminalId: term.TerminalId}); err != nil {
		t.say("terminal: kill: " + err.Error())
		return
	}
	exit, err := c.WaitForTerminalExit(t.ctx, acp.WaitForTerminalExitRequest{SessionId: t.sid, TerminalId: term.TerminalId})
	switch {
	case err != nil:
		t.say("terminal: wait: " + err.Error())
	case exit.Signal != nil:
		t.say("terminal killed: " + *exit.Signal)
	default:
		t.say(fmt.Sprintf("terminal killed: exit %v", exit.ExitCode))
	}
}

func (a *agent) CloseSession(ctx context.Context, p acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	return acp.CloseSessionResponse{}, nil
}

func (a *agent) ListSessions(ctx context.Context, p acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	return acp.ListSessionsResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionList)
}

func (a *agent) ResumeSession(ctx context.Context, p acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	return acp.ResumeSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionResume)
}

func (a *agent) SetSessionConfigOption(ctx context.Context, p acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	return acp.SetSessionConfigOptionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetConfigOption)
}

func (a *agent) SetSessionMode(ctx context.Context, p acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.mode = string(p.ModeId)
	return acp.SetSessionModeResponse{}, nil
}

func (a *agent) UnstableSetSessionModel(ctx context.Context, p acp.UnstableSetSessionModelRequest) (acp.UnstableSetSessionModelResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.model = string(p.ModelId)
	return acp.UnstableSetSessionModelResponse{}, nil
}
