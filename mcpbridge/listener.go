package mcpbridge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"trestle/app/workbench"
	"trestle/registry"
)

const (
	// MaxClients is how many clients may hold a place at once (attached, or
	// connected with the token and not yet initialized); the next one is
	// told so and closed.
	MaxClients = 8
	// maxPending is how many connections may be in flight before they hold
	// a place (giving their token, or being refused): beyond it a connection
	// is refused at once, so a flood of connections that never speak costs
	// the window at most this many descriptors and small buffers.
	maxPending = 64
	// defaultHandshakeTimeout bounds how long a new connection may take to
	// send its token line.
	defaultHandshakeTimeout = 5 * time.Second
	// defaultInitializeTimeout bounds how long a connection that gave the
	// token may hold a place without sending initialize: eight silent token
	// holders would otherwise lock every agent out.
	defaultInitializeTimeout = 5 * time.Second
	// refuseDrain is how long a refused connection is read (and discarded)
	// after the refusal and the half-close, so the client reads the refusal
	// and an end of stream rather than a reset caused by its unread bytes.
	refuseDrain = 500 * time.Millisecond
	// maxFirstRequest is the longest first request read from a client that
	// is refused because the window is full (an initialize is ~300 bytes).
	maxFirstRequest = 64 << 10
	// readBuffer is the read buffer of one session.
	readBuffer = 64 << 10
)

// codeRefused is the JSON-RPC error code of a refused connection or
// request: one of the server-defined codes (-32000 to -32099) that no MCP
// SDK gives a meaning of its own (the TypeScript SDK reads -32001 as its
// own request timeout, -32000 as a closed connection; MCP uses -32002 for
// a resource not found); registry.CodeBusy is -32012.
const codeRefused = -32011

// Accept backs off on temporary errors as net/http does: 5 ms, doubling, to 1 s.
const (
	acceptRetryMin = 5 * time.Millisecond
	acceptRetryMax = time.Second
)

// NewToken returns 32 random bytes as hex.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make connection token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// Listener is a window's loopback MCP endpoint: it accepts connections on
// 127.0.0.1, checks each one's token and serves it as its own MCP session.
// Safe for concurrent use.
type Listener struct {
	srv   *server.MCPServer
	token []byte
	// writeTimeout drops a client that stops reading (tests shorten it).
	writeTimeout time.Duration
	ln           net.Listener
	logger       *log.Logger
	// handshakeTimeout bounds a new connection's token line (tests shorten it).
	handshakeTimeout time.Duration
	// initializeTimeout bounds the wait for initialize (tests shorten it).
	initializeTimeout time.Duration
	// stallAge is how long a connection may go without finishing a
	// handshake line before a new one may take its slot (flood.go; tests
	// lengthen it).
	stallAge time.Duration

	// OnClients, when set before Serve, is called (from any goroutine) with
	// the attached clients and how many more connections hold a place
	// without having initialized, whenever either changes.
	OnClients func(clients []workbench.Client, connecting int)
	// OnFocus, when set before Serve, brings the window to the front: a
	// focus request with the token calls it (from the connection's
	// goroutine, never the accept loop's) and answers once it returns. It
	// must be bounded. Without it focus requests are refused.
	OnFocus func() error
	// focus joins focus requests that arrive while one is being answered.
	focus focusFlight

	pending chan struct{} // a slot per connection in flight before a place
	closing atomic.Bool   // Close or the end of Serve's ctx, not a failure
	// acceptRetries counts accept errors retried (tests wait on it).
	acceptRetries atomic.Int64
	// refusedPending counts connections refused because maxPending were in flight.
	refusedPending atomic.Int64
	// evicted counts stalled connections closed to give their slot to a new one.
	evicted atomic.Int64

	mu       sync.Mutex
	waiting  []*waiting // connections holding a handshake slot, oldest first
	sessions map[string]*session
	conns    map[net.Conn]struct{}
	nextID   int
	wg       sync.WaitGroup
}

// Listen binds 127.0.0.1:0 for srv. Connections must present token.
func Listen(srv *server.MCPServer, token string, logger *log.Logger) (*Listener, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen on loopback: %w", err)
	}
	return newListener(srv, ln, token, logger), nil
}

// ListenOn serves srv's window tools on ln, which must be bound to a
// loopback address; tests use it to give the listener a socket that fails.
func (s *Server) ListenOn(ln net.Listener, token string) (*Listener, error) {
	if a, ok := ln.Addr().(*net.TCPAddr); !ok || !a.IP.IsLoopback() {
		return nil, fmt.Errorf("listen on %s: the MCP listener serves loopback only", ln.Addr())
	}
	l := newListener(s.mcp, ln, token, s.logger)
	s.listener.Store(l)
	return l, nil
}

func newListener(srv *server.MCPServer, ln net.Listener, token string, logger *log.Logger) *Listener {
	return &Listener{
		srv: srv, token: []byte(token), ln: ln, logger: logger,
		writeTimeout: defaultWriteTimeout, handshakeTimeout: defaultHandshakeTimeout,
		initializeTimeout: defaultInitializeTimeout,
		pending:           make(chan struct{}, maxPending),
		stallAge:          stallAge,
		sessions:          map[string]*session{}, conns: map[net.Conn]struct{}{},
	}
}

// Addr is the bound address, e.g. 127.0.0.1:41234.
func (l *Listener) Addr() string { return l.ln.Addr().String() }

// Port is the bound port.
func (l *Listener) Port() int { return l.ln.Addr().(*net.TCPAddr).Port }

// Serve accepts connections until ctx ends or Close is called, then closes
// every connection and waits for their sessions to end; it returns nil
// then. A temporary accept error (out of file descriptors, say) is retried
// after a pause; any other means the listener died, and Serve returns it.
func (l *Listener) Serve(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() { l.closing.Store(true); l.ln.Close() })
	defer stop()
	defer l.closeAll()
	var delay time.Duration
	for {
		c, err := l.ln.Accept()
		if err != nil {
			if l.closing.Load() {
				return nil
			}
			if !temporary(err) {
				return fmt.Errorf("accept MCP connections on %s: %w", l.Addr(), err)
			}
			delay = min(max(2*delay, acceptRetryMin), acceptRetryMax)
			if l.acceptRetries.Add(1)%100 == 1 {
				l.logger.Printf("mcp: accept on %s: %v; retrying in %v", l.Addr(), err, delay)
			}
			select {
			case <-time.After(delay):
			case <-ctx.Done():
			}
			continue
		}
		delay = 0
		if l.takeSlot() {
			w := l.wait(c)
			l.wg.Go(func() { l.serveConn(ctx, w) })
		} else {
			l.refusedPending.Add(1)
			refuseNow(c, errorLine(nil, registry.CodeBusy, fmt.Sprintf(
				"refused: %d connections are already waiting to give their token to this window; try again in a few seconds", maxPending)))
		}
	}
}

// temporary reports whether an accept error passes: the process or system
// is out of descriptors or memory for now, or the client gave up.
func temporary(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	for _, e := range []error{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM,
		syscall.ECONNABORTED, syscall.ECONNRESET, syscall.EINTR, syscall.EAGAIN, syscall.EPROTO} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// Close stops accepting and ends every session.
func (l *Listener) Close() error {
	l.closing.Store(true)
	err := l.ln.Close()
	l.closeAll()
	return err
}

func (l *Listener) closeAll() {
	l.mu.Lock()
	for c := range l.conns {
		c.Close()
	}
	l.mu.Unlock()
	l.wg.Wait()
}
