package mcpbridge

import (
	"context"
	_ "embed"
	"log"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"trestle/app/agent"
	"trestle/app/workbench"
)

// The instructions sent at initialize, one per mode: each names only the
// tools that mode serves.
var (
	//go:embed instructions.md
	windowInstructions string
	//go:embed instructions_headless.md
	headlessInstructions string
)

// Options are how a Server serves its agent over MCP; what it serves (the
// project, the window or none, the services) is the agent's.
type Options struct {
	// Version is Trestle's version, sent at initialize.
	Version string
	// Logger gets diagnostics; it must not write to stdout.
	Logger *log.Logger
	// OnCall, when set, hears of every tool call once it is answered (the
	// window's Agents pane). It is called on the serving goroutine and must
	// not block.
	OnCall func(workbench.ToolCall)
	// Stall, when set, adds the hidden test tool trestle_debug_stall that
	// blocks the UI thread, so tests can see a bounded call answer busy.
	// Only a build with -tags trestle_testhooks has the tool.
	Stall func(time.Duration)
	// ApplyAsPerson, when set, adds the hidden test tool trestle_debug_apply
	// that presses Apply in the window's Change Sets pane. Only a build
	// with -tags trestle_testhooks has the tool.
	ApplyAsPerson func(ctx context.Context, id string) error
}

// Server is Trestle's MCP server for one project, in window or headless
// form. Safe for concurrent use.
type Server struct {
	mcp      *server.MCPServer
	opts     Options
	agent    *agent.Agent // what the tools do; they decode, call it, encode
	logger   *log.Logger
	listener atomic.Pointer[Listener]
	calls    atomic.Uint64 // numbers tool calls for the Agents pane
	idle     *idleFree     // gives memory back after a load (memory.go)
}

// NewServer serves ag over MCP: the window tool set when ag works on a
// window, else the headless one, each with the tools of the operations ag
// offers. ag may be shared with another protocol's adapter.
func NewServer(ag *agent.Agent, opts Options) *Server {
	if ag == nil {
		panic("mcpbridge.NewServer: no agent; make one with agent.New")
	}
	if opts.Logger == nil {
		opts.Logger = log.Default()
	}
	s := &Server{opts: opts, logger: opts.Logger, idle: newIdleFree(), agent: ag}
	s.mcp = server.NewMCPServer("trestle", opts.Version,
		server.WithToolCapabilities(false),
		server.WithInstructions(s.instructions()),
		server.WithRecovery(),
		server.WithHooks(s.sessionHooks()),
		server.WithToolHandlerMiddleware(askInRoundTrips), // elicit.go
	)
	for _, t := range s.tools() {
		s.mcp.AddTools(s.freeing(s.recorded(t)))
	}
	s.watchRoots()
	return s
}

// headless reports whether this is the server without a window (--mcp).
func (s *Server) headless() bool { return !s.agent.Windowed() }

// mode is the server's mode: headless without a window, else the window's.
func (s *Server) mode() mode {
	if s.headless() {
		return headlessMode
	}
	return windowMode
}

// instructions is what the server tells an agent at initialize.
func (s *Server) instructions() string {
	if s.headless() {
		return headlessInstructions
	}
	return windowInstructions
}

// inMode picks a text by mode: the window's, or the headless server's.
func (s *Server) inMode(window, headless string) string {
	if s.headless() {
		return headless
	}
	return window
}

// sessionHooks drop a session's "Allow for this session" grant when it
// ends, and again when one begins: a listener that starts over numbers its
// connections from conn-1 again, and a new client must never inherit the
// grant the person gave an earlier one.
func (s *Server) sessionHooks() *server.Hooks {
	forget := func(_ context.Context, cs server.ClientSession) { s.agent.SessionEnded(cs.SessionID()) }
	h := &server.Hooks{}
	h.AddOnRegisterSession(forget)
	h.AddOnUnregisterSession(forget)
	return h
}

// MCP is the underlying mcp-go server.
func (s *Server) MCP() *server.MCPServer { return s.mcp }

// Listen starts the window's loopback listener for this server.
func (s *Server) Listen(token string) (*Listener, error) {
	l, err := Listen(s.mcp, token, s.logger)
	if err != nil {
		return nil, err
	}
	s.listener.Store(l)
	return l, nil
}

// clients lists the attached clients, or none when there is no listener.
func (s *Server) clients() []workbench.Client {
	if l := s.listener.Load(); l != nil {
		return l.Clients()
	}
	return []workbench.Client{}
}
