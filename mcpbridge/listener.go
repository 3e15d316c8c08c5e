package mcpbridge

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"sort"
	"strconv"
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
	// maxTokenLine is the longest first line read: a token line is ~90 bytes.
	maxTokenLine = 4 << 10
	// maxFirstRequest is the longest first request read from a client that
	// is refused because the window is full (an initialize is ~300 bytes).
	maxFirstRequest = 64 << 10
	// readBuffer is the read buffer of one session.
	readBuffer = 64 << 10
)

// codeRefused is the JSON-RPC error code of a refused connection or request.
const codeRefused = -32001

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

	// OnClients, when set before Serve, is called (from any goroutine) with
	// the attached clients and how many more connections hold a place
	// without having initialized, whenever either changes.
	OnClients func(clients []workbench.Client, connecting int)

	pending chan struct{} // a slot per connection in flight before a place
	closing atomic.Bool   // Close or the end of Serve's ctx, not a failure
	// acceptRetries counts accept errors retried (tests wait on it).
	acceptRetries atomic.Int64
	// refusedPending counts connections refused because maxPending were in flight.
	refusedPending atomic.Int64

	mu       sync.Mutex
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
		select {
		case l.pending <- struct{}{}:
			l.wg.Go(func() { l.serveConn(ctx, c) })
		default:
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

// Clients lists the attached clients that have initialized, ordered by
// session id.
func (l *Listener) Clients() []workbench.Client {
	clients, _ := l.places()
	return clients
}

// places lists the initialized clients and counts the places held by
// connections that have not initialized yet.
func (l *Listener) places() (clients []workbench.Client, connecting int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	clients = make([]workbench.Client, 0, len(l.sessions))
	for _, s := range l.sessions {
		if s.Initialized() {
			clients = append(clients, s.client())
		} else {
			connecting++
		}
	}
	sort.Slice(clients, func(i, j int) bool { return sessionNum(clients[i].Session) < sessionNum(clients[j].Session) })
	return clients, connecting
}

func sessionNum(id string) int {
	n, _ := strconv.Atoi(id[len("conn-"):])
	return n
}

// serveConn runs one connection: the handshake, then its MCP session. The
// connection holds a pending slot until it holds a place or is refused.
func (l *Listener) serveConn(ctx context.Context, c net.Conn) {
	l.track(c, true)
	defer l.track(c, false)
	defer c.Close()
	released := false
	release := func() {
		if !released {
			released = true
			<-l.pending
		}
	}
	defer release()
	r := bufio.NewReaderSize(c, maxTokenLine) // small until the token is right
	probe, id, msg := l.handshake(c, r)
	if msg != "" {
		refuse(c, errorLine(id, codeRefused, msg))
		return
	}
	if probe {
		refuse(c, nil) // the proof was its answer
		return
	}
	sess, ok := l.admit()
	if !ok {
		l.refuseFull(c, r)
		return
	}
	defer l.leave(sess)
	release()
	c.SetWriteDeadline(time.Now().Add(l.handshakeTimeout))
	if _, err := c.Write(registry.WelcomeLine(registry.Welcome{State: registry.WelcomeReady})); err != nil {
		return
	}
	initTimer := time.AfterFunc(l.initializeTimeout, func() {
		if !sess.Initialized() {
			l.logger.Printf("mcp: %s gave the token but no initialize within %v; closed", sess.id, l.initializeTimeout)
			c.Close()
		}
	})
	defer initTimer.Stop()
	st := stream{r: bufio.NewReaderSize(r, readBuffer), w: c, close: func() { c.Close() }, writeTimeout: l.writeTimeout}
	if err := serveSession(ctx, l.srv, sess, st, l.logger); err != nil {
		l.logger.Printf("mcp: %v", err)
	}
}

// handshake reads the client's first line and, after a Hello, answers
// the proof and reads the token line. It returns probe when the client
// only wanted the proof (answered already), else "" when the token is
// right or the refusal message and, when the line was a JSON-RPC request,
// its id. The whole handshake has handshakeTimeout; the comparison is
// constant time.
func (l *Listener) handshake(c net.Conn, r *bufio.Reader) (probe bool, id any, refusal string) {
	c.SetDeadline(time.Now().Add(l.handshakeTimeout))
	defer c.SetDeadline(time.Time{})
	const notToken = "refused: the first line must be the Trestle hello or token line; connect with `trestle --mcp-attach`"
	line, msg := l.handshakeLine(r)
	if msg != "" {
		return false, nil, msg
	}
	hello, tl, ok := registry.ParseFirst(line)
	if !ok {
		return false, requestID(line), notToken
	}
	if hello.Nonce != "" {
		if _, err := c.Write(registry.Line(registry.Proof{Proof: registry.ProveWindow(string(l.token), hello.Nonce)})); err != nil {
			return false, nil, "refused: could not answer the hello"
		}
		if hello.Probe {
			return true, nil, ""
		}
		if line, msg = l.handshakeLine(r); msg != "" {
			return false, nil, msg
		}
		if tl, ok = registry.ParseToken(line); !ok {
			return false, requestID(line), notToken
		}
	}
	if subtle.ConstantTimeCompare([]byte(tl.Token), l.token) != 1 {
		return false, nil, "refused: wrong token; the window may have restarted, so attach again with `trestle --mcp-attach`"
	}
	return false, nil, ""
}

// handshakeLine reads one handshake line, or says why there is none.
func (l *Listener) handshakeLine(r *bufio.Reader) ([]byte, string) {
	line, err := r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) || len(line) > maxTokenLine {
		return nil, "refused: the first line must be the Trestle hello or token line; connect with `trestle --mcp-attach`"
	}
	if err != nil {
		return nil, "refused: no token line within " + l.handshakeTimeout.String() + "; connect with `trestle --mcp-attach`"
	}
	return line, ""
}

// requestID is the id of a JSON-RPC request line, else nil.
func requestID(line []byte) any {
	var m struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	return m.ID
}

// fullMessage is the refusal a client gets when every place is taken.
var fullMessage = fmt.Sprintf("refused: %d agents are attached to this window, the most it serves; detach one and try again", MaxClients)

// refuseFull tells a client that gave the token that every place is
// taken: a Welcome saying so (for the bridge), then the refusal as the
// answer to its first request, with that request's id, so an MCP client
// shows why it could not connect.
func (l *Listener) refuseFull(c net.Conn, r *bufio.Reader) {
	c.SetWriteDeadline(time.Now().Add(l.handshakeTimeout))
	if _, err := c.Write(registry.WelcomeLine(registry.Welcome{State: registry.WelcomeFull, Attached: MaxClients})); err != nil {
		return
	}
	c.SetReadDeadline(time.Now().Add(l.handshakeTimeout))
	br := bufio.NewReaderSize(r, maxFirstRequest)
	var id any
	for id == nil {
		line, err := br.ReadSlice('\n')
		if err != nil {
			break // no request in time, or one too long to read: refuse without an id
		}
		id = requestID(line) // a notification has none: read on
	}
	refuse(c, errorLine(id, codeRefused, fullMessage))
}

// refuse writes line to c, half-closes it, reads and discards what the
// client still sends for up to refuseDrain, then closes it. Closing with
// the client's bytes unread would reset the connection, and a client
// could see the reset before the refusal.
func refuse(c net.Conn, line []byte) {
	c.SetWriteDeadline(time.Now().Add(refuseDrain))
	if line != nil {
		c.Write(withNewline(line))
	}
	if hc, ok := c.(interface{ CloseWrite() error }); ok {
		hc.CloseWrite()
	}
	c.SetReadDeadline(time.Now().Add(refuseDrain))
	io.Copy(io.Discard, io.LimitReader(c, 1<<20))
	c.Close()
}

// refuseNow is refuse without the wait, for the accept loop: it reads only
// what has already arrived.
func refuseNow(c net.Conn, line []byte) {
	c.SetDeadline(time.Now().Add(10 * time.Millisecond))
	c.Write(withNewline(line))
	if hc, ok := c.(interface{ CloseWrite() error }); ok {
		hc.CloseWrite()
	}
	c.SetReadDeadline(time.Now())
	io.Copy(io.Discard, io.LimitReader(c, 64<<10))
	c.Close()
}

func withNewline(line []byte) []byte {
	if len(line) > 0 && line[len(line)-1] == '\n' {
		return line
	}
	return append(line, '\n')
}

// admitWait is how long a connection waits for a free place when the window
// is full: connections that only check the token (the registry's probe
// before an attach) leave within milliseconds, and a real client should not
// be refused because one was still closing.
const admitWait = 300 * time.Millisecond

// admit makes a session for a new connection, waiting up to admitWait for
// a place, or reports that MaxClients are attached.
func (l *Listener) admit() (*session, bool) {
	deadline := time.Now().Add(admitWait)
	for {
		if sess, ok := l.tryAdmit(); ok || time.Now().After(deadline) {
			return sess, ok
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (l *Listener) tryAdmit() (*session, bool) {
	l.mu.Lock()
	if len(l.sessions) >= MaxClients {
		l.mu.Unlock()
		return nil, false
	}
	l.nextID++
	sess := newSession(fmt.Sprintf("conn-%d", l.nextID), l.changed)
	l.sessions[sess.id] = sess
	l.mu.Unlock()
	l.changed() // one more connecting
	return sess, true
}

func (l *Listener) leave(sess *session) {
	l.mu.Lock()
	delete(l.sessions, sess.id)
	l.mu.Unlock()
	l.changed()
}

// track records c so Close can end it, from accept on.
func (l *Listener) track(c net.Conn, add bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if add {
		l.conns[c] = struct{}{}
	} else {
		delete(l.conns, c)
	}
}

func (l *Listener) changed() {
	if l.OnClients != nil {
		l.OnClients(l.places())
	}
}
