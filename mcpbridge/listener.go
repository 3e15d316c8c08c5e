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
	"log"
	"net"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"trestle/app"
)

const (
	// MaxClients is how many clients may be attached at once; the next one
	// is told so and closed.
	MaxClients = 8
	// defaultHandshakeTimeout bounds how long a new connection may take to
	// send its token line.
	defaultHandshakeTimeout = 5 * time.Second
	// maxTokenLine is the longest first line read: a token line is ~80 bytes.
	maxTokenLine = 4 << 10
	// readBuffer is the read buffer of one connection.
	readBuffer = 64 << 10
)

// codeRefused is the JSON-RPC error code of a refused connection.
const codeRefused = -32001

// TokenLine is the first line a client sends on a window's socket.
type TokenLine struct {
	Token string `json:"trestle_token"`
}

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

	// OnClients, when set before Serve, is called (from any goroutine) with
	// the attached clients whenever they change.
	OnClients func([]app.Client)

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
	return &Listener{
		srv: srv, token: []byte(token), ln: ln, logger: logger,
		writeTimeout: defaultWriteTimeout, handshakeTimeout: defaultHandshakeTimeout,
		sessions: map[string]*session{}, conns: map[net.Conn]struct{}{},
	}, nil
}

// Addr is the bound address, e.g. 127.0.0.1:41234.
func (l *Listener) Addr() string { return l.ln.Addr().String() }

// Port is the bound port.
func (l *Listener) Port() int { return l.ln.Addr().(*net.TCPAddr).Port }

// Serve accepts connections until ctx ends or Close is called, then closes
// every connection and waits for their sessions to end.
func (l *Listener) Serve(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() { l.ln.Close() })
	defer stop()
	defer l.closeAll()
	for {
		c, err := l.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return fmt.Errorf("accept MCP connection: %w", err)
		}
		l.wg.Go(func() { l.serveConn(ctx, c) })
	}
}

// Close stops accepting and ends every session.
func (l *Listener) Close() error {
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
func (l *Listener) Clients() []app.Client {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]app.Client, 0, len(l.sessions))
	for _, s := range l.sessions {
		if s.Initialized() { // a connection that never says who it is (a probe) is no agent
			out = append(out, s.client())
		}
	}
	sort.Slice(out, func(i, j int) bool { return sessionNum(out[i].Session) < sessionNum(out[j].Session) })
	return out
}

func sessionNum(id string) int {
	n, _ := strconv.Atoi(id[len("conn-"):])
	return n
}

func (l *Listener) serveConn(ctx context.Context, c net.Conn) {
	l.track(c, true)
	defer l.track(c, false)
	defer c.Close()
	r := bufio.NewReaderSize(c, readBuffer)
	if msg := l.handshake(c, r); msg != "" {
		c.SetWriteDeadline(time.Now().Add(l.handshakeTimeout))
		c.Write(append(errorLine(nil, codeRefused, msg), '\n'))
		return
	}
	sess, ok := l.admit()
	if !ok {
		c.SetWriteDeadline(time.Now().Add(l.handshakeTimeout))
		c.Write(append(errorLine(nil, codeRefused, fmt.Sprintf(
			"refused: %d clients are already attached to this window, the most it serves; detach one and try again", MaxClients)), '\n'))
		return
	}
	defer l.leave(sess)
	st := stream{r: r, w: c, close: func() { c.Close() }, writeTimeout: l.writeTimeout}
	if err := serveSession(ctx, l.srv, sess, st, l.logger); err != nil {
		l.logger.Printf("mcp: %v", err)
	}
}

// handshake reads the token line and returns "" when it carries the token,
// else the refusal message. The comparison is constant time.
func (l *Listener) handshake(c net.Conn, r *bufio.Reader) string {
	c.SetReadDeadline(time.Now().Add(l.handshakeTimeout))
	defer c.SetReadDeadline(time.Time{})
	const notToken = "refused: the first line must be the Trestle token line; connect with `trestle --mcp-attach`"
	line, err := r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) || len(line) > maxTokenLine {
		return notToken
	}
	if err != nil {
		return "refused: no token line within " + l.handshakeTimeout.String() + "; connect with `trestle --mcp-attach`"
	}
	var tl TokenLine
	if json.Unmarshal(line, &tl) != nil || tl.Token == "" {
		return notToken
	}
	if subtle.ConstantTimeCompare([]byte(tl.Token), l.token) != 1 {
		return "refused: wrong token; the window may have restarted, so attach again with `trestle --mcp-attach`"
	}
	return ""
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
	defer l.mu.Unlock()
	if len(l.sessions) >= MaxClients {
		return nil, false
	}
	l.nextID++
	sess := newSession(fmt.Sprintf("conn-%d", l.nextID), l.changed)
	l.sessions[sess.id] = sess
	return sess, true
}

func (l *Listener) leave(sess *session) {
	l.mu.Lock()
	delete(l.sessions, sess.id)
	l.mu.Unlock()
	if sess.Initialized() {
		l.changed()
	}
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
		l.OnClients(l.Clients())
	}
}
