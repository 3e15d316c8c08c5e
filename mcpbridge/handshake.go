package mcpbridge

import (
	"bufio"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"trestle/registry"
)

// The listener's side of the handshake whose wire format
// registry/handshake.go owns, and the refusals it answers with.

// serveConn runs one connection: the handshake, then its MCP session. The
// connection holds a pending slot until it holds a place or is refused; a
// stalled one (silent, or trickling a line) may be evicted from it (flood.go).
func (l *Listener) serveConn(ctx context.Context, w *waiting) {
	c := w.c
	l.track(c, true)
	defer l.track(c, false)
	defer c.Close()
	released := false
	release := func() {
		if !released {
			released = true
			l.unwait(w)
			<-l.pending
		}
	}
	defer release()
	r := bufio.NewReaderSize(spokeReader{w}, registry.MaxHandshakeLine) // small until the token is right
	purpose, id, msg := l.handshake(c, r)
	if msg != "" {
		refuse(c, errorLine(id, codeRefused, msg))
		return
	}
	switch purpose {
	case purposeProbe:
		refuse(c, nil) // the proof was its answer
		return
	case purposeFocus:
		l.answerFocus(c) // holds no place
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

// purpose is what a connection came for, as its handshake says.
type purpose int

const (
	purposeAttach purpose = iota // an MCP session
	purposeProbe                 // only the window's proof
	purposeFocus                 // the window to come to the front (focus.go)
)

// handshake reads the client's first line and, after a Hello, answers
// the proof and reads the token line. It returns purposeProbe when the
// client only wanted the proof (answered already); else what the right
// token came for, with refusal "", or the refusal message and, when the
// line was a JSON-RPC request, its id. The whole handshake has
// handshakeTimeout; the comparison is constant time.
func (l *Listener) handshake(c net.Conn, r *bufio.Reader) (p purpose, id any, refusal string) {
	c.SetDeadline(time.Now().Add(l.handshakeTimeout))
	defer c.SetDeadline(time.Time{})
	const notToken = "refused: the first line must be the Trestle hello or token line; connect with `trestle --mcp-attach`"
	line, msg := l.handshakeLine(r)
	if msg != "" {
		return purposeAttach, nil, msg
	}
	hello, tl, ok := registry.ParseFirst(line)
	if !ok {
		return purposeAttach, requestID(line), notToken
	}
	if hello.Nonce != "" {
		if _, err := c.Write(registry.Line(registry.Proof{Proof: registry.ProveWindow(string(l.token), hello.Nonce)})); err != nil {
			return purposeAttach, nil, "refused: could not answer the hello"
		}
		if hello.Probe {
			return purposeProbe, nil, ""
		}
		if line, msg = l.handshakeLine(r); msg != "" {
			return purposeAttach, nil, msg
		}
		if tl, ok = registry.ParseToken(line); !ok {
			return purposeAttach, requestID(line), notToken
		}
	}
	if subtle.ConstantTimeCompare([]byte(tl.Token), l.token) != 1 {
		return purposeAttach, nil, "refused: wrong token; the window may have restarted, so attach again with `trestle --mcp-attach`"
	}
	if tl.Focus {
		return purposeFocus, nil, ""
	}
	return purposeAttach, nil, ""
}

// handshakeLine reads one handshake line, or says why there is none.
func (l *Listener) handshakeLine(r *bufio.Reader) ([]byte, string) {
	line, err := r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) || len(line) > registry.MaxHandshakeLine {
		return nil, "refused: the first line must be the Trestle hello or token line; connect with `trestle --mcp-attach`"
	}
	if err != nil {
		return nil, "refused: no token line within " + l.handshakeTimeout.String() + "; connect with `trestle --mcp-attach`"
	}
	return line, ""
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
