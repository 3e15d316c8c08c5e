package acp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"trestle/app/permission"
	"trestle/app/procgroup"
	"trestle/app/sandbox"
)

// Options say how to host an agent.
type Options struct {
	// Command is the agent's command line as argv: "npx",
	// "@zed-industries/claude-code-acp".
	Command []string
	// Env is added to the agent's environment ("NAME=value").
	Env []string
	// Stage is the session's staging copy; the caller closes it.
	Stage   *sandbox.Stage
	Sandbox sandbox.Options
	// OnUpdate receives every session/update notification, in order, on
	// the connection's goroutine; it must not block for long. nil drops
	// them.
	OnUpdate func(sdk.SessionNotification)
	// OnTerminal receives news of the commands the agent runs through
	// terminal/*, in order per terminal, on the command's goroutines; it
	// must not block. nil drops it.
	OnTerminal func(TerminalEvent)
	// Policy returns the permission policy now (permission.PolicyAsk,
	// PolicyAllow or PolicyDeny); nil is ask.
	Policy func() string
	// Ask shows a permission request to the person and returns the option
	// they chose; nil (nobody to ask) rejects. Deny always wins: under
	// PolicyDeny Ask is not called, and an answer that arrives after the
	// policy turned to deny is a rejection.
	Ask func(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error)
	// Editor returns the person's editor text of a project file
	// (project-relative path) when it is open; nil reads the staging copy only.
	Editor func(rel string) (text string, open bool)
	// McpServers are passed in session/new (Trestle's own, say).
	McpServers []sdk.McpServer
	// Stderr receives the agent's stderr; nil discards it.
	Stderr io.Writer
	// ClientName and ClientVersion are sent in initialize.
	ClientName, ClientVersion string
}

// Session is one hosted agent process with one ACP session in its staging
// copy. Prompt, Cancel and Close are safe for concurrent use.
type Session struct {
	opts   Options
	cmd    *exec.Cmd
	conn   *sdk.ClientSideConnection
	id     sdk.SessionId
	client *client
	Agent  sdk.InitializeResponse // what the agent said at initialize
	// Modes and Models are what session/new offered (nil: none); the
	// agent's later changes come as session updates.
	Modes  *sdk.SessionModeState
	Models *sdk.SessionModelState

	closeOnce sync.Once
	waited    chan struct{} // closed when the agent process has exited
	waitErr   error
}

// Start starts the agent inside the sandbox, initializes the connection
// and opens a session whose working folder is the staging copy (Launch,
// then Open). ctx bounds the start only. On failure nothing is left running.
func Start(ctx context.Context, opts Options) (*Session, error) {
	s, err := Launch(ctx, opts)
	if err != nil {
		return nil, err
	}
	if err := s.Open(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Launch starts the agent inside the sandbox and initializes the
// connection; s.Agent then says what the agent offers (its name, whether
// it needs authentication). Open opens the session. ctx bounds the
// initialize only. On failure nothing is left running.
func Launch(ctx context.Context, opts Options) (*Session, error) {
	if len(opts.Command) == 0 {
		return nil, errors.New("start agent: no command line")
	}
	cmd, err := sandbox.Command(context.Background(), opts.Stage, opts.Sandbox, "", opts.Env, opts.Command[0], opts.Command[1:]...)
	if err != nil {
		return nil, fmt.Errorf("start agent %s: %w", opts.Command[0], err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = opts.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start agent %s: %w", opts.Command[0], err)
	}
	s := &Session{opts: opts, cmd: cmd, waited: make(chan struct{})}
	go func() { s.waitErr = cmd.Wait(); close(s.waited) }()
	s.client = newClient(s)
	s.conn = sdk.NewClientSideConnection(s.client, stdin, stdout)
	s.conn.SetLogger(logger(opts.Stderr))
	if err := s.initialize(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("start agent %s: %w", opts.Command[0], s.explain(err))
	}
	return s, nil
}

// initialize runs initialize.
func (s *Session) initialize(ctx context.Context) error {
	name := s.opts.ClientName
	if name == "" {
		name = "trestle"
	}
	init, err := s.conn.Initialize(ctx, sdk.InitializeRequest{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientInfo:      &sdk.Implementation{Name: name, Version: s.opts.ClientVersion},
		ClientCapabilities: sdk.ClientCapabilities{
			Fs:       sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true},
			Terminal: true,
		},
	})
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	s.Agent = init
	return nil
}

// Open opens the agent's session (session/new) with the staging copy as
// its working folder.
func (s *Session) Open(ctx context.Context) error {
	servers := s.opts.McpServers
	if servers == nil {
		servers = []sdk.McpServer{}
	}
	resp, err := s.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: s.opts.Stage.Dir, McpServers: servers})
	if err != nil {
		return fmt.Errorf("agent %s: session/new: %w", s.opts.Command[0], s.explain(err))
	}
	s.id = resp.SessionId
	s.Modes, s.Models = resp.Modes, resp.Models
	return nil
}

// SetMode asks the agent to work in the mode id (session/set_mode), one
// of s.Modes.
func (s *Session) SetMode(ctx context.Context, id string) error {
	if _, err := s.conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: s.id, ModeId: sdk.SessionModeId(id)}); err != nil {
		return fmt.Errorf("agent %s: session/set_mode %q: %w", s.opts.Command[0], id, s.explain(err))
	}
	return nil
}

// SetModel asks the agent to use the model id (session/set_model, still
// unstable in the protocol), one of s.Models.
func (s *Session) SetModel(ctx context.Context, id string) error {
	if _, err := s.conn.UnstableSetSessionModel(ctx, sdk.UnstableSetSessionModelRequest{SessionId: s.id, ModelId: sdk.UnstableModelId(id)}); err != nil {
		return fmt.Errorf("agent %s: session/set_model %q: %w", s.opts.Command[0], id, s.explain(err))
	}
	return nil
}

// CanLoad reports whether the agent can resume an earlier session
// (session/load, its loadSession capability).
func (s *Session) CanLoad() bool { return s.Agent.AgentCapabilities.LoadSession }

// Load resumes the agent's earlier session id (session/load) with the
// staging copy as its working folder: the agent replays its history as
// session updates (OnUpdate) before Load returns.
func (s *Session) Load(ctx context.Context, id string) error {
	if !s.CanLoad() {
		return fmt.Errorf("agent %s cannot resume a session: it does not offer session/load", s.opts.Command[0])
	}
	servers := s.opts.McpServers
	if servers == nil {
		servers = []sdk.McpServer{}
	}
	resp, err := s.conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: sdk.SessionId(id), Cwd: s.opts.Stage.Dir, McpServers: servers})
	if err != nil {
		return fmt.Errorf("agent %s: session/load %q: %w", s.opts.Command[0], id, s.explain(err))
	}
	s.id = sdk.SessionId(id)
	s.Modes, s.Models = resp.Modes, resp.Models
	return nil
}

// explain adds the agent's exit to err when the agent died.
func (s *Session) explain(err error) error {
	select {
	case <-s.waited:
		if s.waitErr == nil {
			return fmt.Errorf("%w (the agent exited with status 0: is it an ACP agent?)", err)
		}
		return fmt.Errorf("%w (the agent exited: %v)", err, s.waitErr)
	default:
		return err
	}
}

// ID is the agent's session id.
func (s *Session) ID() string { return string(s.id) }

// Prompt sends one prompt turn and returns when the agent ends it, with
// its stop reason. Cancelling ctx sends session/cancel and waits for the
// agent to end the turn (cancelled), for at most cancelGrace.
func (s *Session) Prompt(ctx context.Context, text string) (sdk.StopReason, error) {
	type result struct {
		resp sdk.PromptResponse
		err  error
	}
	done := make(chan result, 1)
	turn, stop := context.WithCancel(context.Background())
	defer stop()
	go func() {
		resp, err := s.conn.Prompt(turn, sdk.PromptRequest{SessionId: s.id, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
		done <- result{resp, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return "", fmt.Errorf("prompt: %w", s.explain(r.err))
		}
		return r.resp.StopReason, nil
	case <-s.conn.Done():
		return "", fmt.Errorf("prompt: %w", s.explain(errors.New("the agent closed the connection")))
	case <-ctx.Done():
	}
	s.Cancel()
	select {
	case r := <-done:
		if r.err != nil {
			return sdk.StopReasonCancelled, nil
		}
		return r.resp.StopReason, nil
	case <-time.After(cancelGrace):
		return sdk.StopReasonCancelled, fmt.Errorf("prompt: the agent did not end the turn within %v of session/cancel", cancelGrace)
	}
}

// cancelGrace is how long a cancelled turn may take to end: an agent
// should answer session/cancel at once, but may finish a write first.
const cancelGrace = 10 * time.Second

// Cancel asks the agent to end the running turn (session/cancel) and
// kills the session's terminals.
func (s *Session) Cancel() {
	s.client.killTerminals()
	s.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: s.id})
}

// Close ends the session: it kills the terminals and the agent's whole
// process group (and, sandboxed, every process in its sandbox) and waits
// for the agent to exit. It does not remove the staging copy.
func (s *Session) Close() error {
	s.closeOnce.Do(func() {
		s.client.killTerminals()
		procgroup.Kill(s.cmd)
		<-s.waited
		s.client.waitTerminals()
	})
	return nil
}

// logger is the connection's diagnostics: warnings and errors to w, if any.
func logger(w io.Writer) *slog.Logger {
	if w == nil {
		w = io.Discard
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// policy is the permission policy now.
func (s *Session) policy() string {
	if s.opts.Policy == nil {
		return permission.PolicyAsk
	}
	return s.opts.Policy()
}
