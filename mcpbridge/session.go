package mcpbridge

import (
	"crypto/rand"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/workbench"
)

// notificationBuffer is how many notifications a session queues before
// mcp-go drops new ones (it never blocks a handler on a slow client).
const notificationBuffer = 256

// session is one connection's MCP session: mcp-go keys in-flight requests,
// cancellation and notifications by it, so connections never cross. It
// implements server.ClientSession, SessionWithClientInfo and
// SessionWithLogging. Safe for concurrent use.
type session struct {
	id            string
	owner         string // unique to this session, in any process: what it proposes is its own (sessionOwner)
	notifications chan mcp.JSONRPCNotification
	initialized   atomic.Bool
	onInit        func() // called once the client has said who it is; may be nil

	// budget bounds what the session's requests and answers hold.
	budget budget
	// asking holds the requests sent to the client (asking.go).
	asking asking

	mu       sync.Mutex
	info     mcp.Implementation
	caps     mcp.ClientCapabilities
	protocol string
	level    mcp.LoggingLevel
}

var (
	_ server.ClientSession              = (*session)(nil)
	_ server.SessionWithClientInfo      = (*session)(nil)
	_ server.SessionWithLogging         = (*session)(nil)
	_ server.SessionWithProtocolVersion = (*session)(nil)
)

func newSession(id string, onInit func()) *session {
	return &session{
		id:            id,
		owner:         rand.Text(),
		notifications: make(chan mcp.JSONRPCNotification, notificationBuffer),
		onInit:        onInit,
		level:         mcp.LoggingLevelError,
		budget:        budget{changed: make(chan struct{})},
	}
}

func (s *session) SessionID() string { return s.id }

func (s *session) NotificationChannel() chan<- mcp.JSONRPCNotification { return s.notifications }

func (s *session) Initialize() { s.initialized.Store(true) }

func (s *session) Initialized() bool { return s.initialized.Load() }

// SetClientInfo records who the client says it is: at initialize, or, in
// the 2026-07-28 protocol, from a request's _meta (mcp-go applies each
// one here). The first name the session gives stays its name: a later
// request that names another client changes nothing, so that one session
// cannot pass itself off as another in the Agents pane, the status bar or
// a permission dialog.
func (s *session) SetClientInfo(info mcp.Implementation) {
	s.mu.Lock()
	if s.info.Name != "" {
		s.mu.Unlock()
		return
	}
	s.info = info
	s.mu.Unlock()
	if s.onInit != nil {
		s.onInit()
	}
}

func (s *session) GetClientInfo() mcp.Implementation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.info
}

func (s *session) SetClientCapabilities(caps mcp.ClientCapabilities) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.caps = caps
}

func (s *session) GetClientCapabilities() mcp.ClientCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

// SetProtocolVersion records the version negotiated at initialize.
func (s *session) SetProtocolVersion(v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.protocol = v
}

// ProtocolVersion is the version negotiated at initialize, "" before it.
func (s *session) ProtocolVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.protocol
}

func (s *session) SetLogLevel(level mcp.LoggingLevel) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.level = level
}

func (s *session) GetLogLevel() mcp.LoggingLevel {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.level
}

// client describes the session for the workbench and the status bar.
func (s *session) client() workbench.Client {
	info := s.GetClientInfo()
	name := info.Name
	if name == "" {
		name = "(not initialized)"
	}
	return workbench.Client{Session: s.id, Name: name, Version: info.Version}
}
