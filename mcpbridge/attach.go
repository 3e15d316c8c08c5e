package mcpbridge

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync/atomic"
	"time"

	"trestle/registry"
)

const (
	// dialTimeout bounds connecting to a window on loopback.
	dialTimeout = 3 * time.Second
	// greetTimeout bounds the window's answer to the token line: it comes
	// at once, so silence this long is not a Trestle window.
	greetTimeout = 5 * time.Second
	// busyWait is how long the bridge keeps trying a window that refuses
	// it as busy (a flood of connections holds its handshake places, each
	// for at most its 5 s handshake bound).
	busyWait = 12 * time.Second
)

// ErrWindowGone means the window closed the connection while the client
// still had stdin open.
var ErrWindowGone = errors.New("the Trestle window closed the connection")

// NotAttachedError is a failure of AttachTo before anything of the
// client's was sent to a window or answered.
type NotAttachedError struct{ Err error }

func (e *NotAttachedError) Error() string { return e.Err.Error() }

func (e *NotAttachedError) Unwrap() error { return e.Err }

// firstRequestWait bounds how long AnswerFirstRequest waits for the
// client's first request: clients send initialize as soon as they start
// the server.
const firstRequestWait = 10 * time.Second

// AnswerFirstRequest reads stdin up to the client's first request (lines
// without an id, notifications, are skipped) and answers it on stdout with
// a JSON-RPC error carrying message, so an MCP client shows why it could
// not connect rather than "connection closed". It gives up after
// firstRequestWait, at the end of stdin or on a line over 64 KiB.
func AnswerFirstRequest(stdin io.Reader, stdout io.Writer, message string) {
	in := bufio.NewReaderSize(stdin, readBuffer)
	found := make(chan any, 1)
	go func() {
		for {
			line, err := in.ReadSlice('\n')
			if id := requestID(line); id != nil {
				found <- id
				return
			}
			if err != nil {
				close(found)
				return
			}
		}
	}()
	select {
	case id, ok := <-found:
		if ok {
			stdout.Write(withNewline(errorLine(id, codeRefused, message)))
		}
	case <-time.After(firstRequestWait):
	}
}

// FullError means the window refused the client because Attached clients
// already hold every place. The client's first request was answered with
// the refusal before Attach returned it.
type FullError struct{ Attached int }

func (e *FullError) Error() string {
	return fmt.Sprintf("refused: %d agents are attached to the window", e.Attached)
}

// Attach is AttachTo the window at addr holding token.
func Attach(ctx context.Context, addr, token string, stdin io.Reader, stdout io.Writer) error {
	return AttachTo(ctx, func() (string, string, error) { return addr, token, nil }, stdin, stdout)
}

// AttachTo is the --mcp-attach bridge. It calls find for the window's
// address and token, and connects, only once the client has sent its first
// byte: the window closes a connection that gave the token but sends no
// initialize within its bound (5 s), an MCP client may well start the
// bridge and wait longer than that before it initializes, and by then the
// window may have restarted its listener on a new port. It then runs the
// handshake (nothing of the client's is sent to a process that does not
// answer as the window does) and copies bytes both ways without decoding
// them. When stdin ends it half-closes the socket and waits for the
// remaining replies, returning nil; stdin that ends before any byte is nil
// without a connection. When the window goes first it returns an error
// wrapping ErrWindowGone; ctx's error when ctx ends (a signal), and then
// only. Failures before anything was bridged are a *NotAttachedError, with
// the client's first message still unread in stdin (see
// AnswerFirstRequest): find's error, a refused token (wrapping a
// *registry.RefusedError), a silent or foreign listener (wrapping
// registry.ErrNotTrestle). A full window is a *FullError.
func AttachTo(ctx context.Context, find func() (addr, token string, err error), stdin io.Reader, stdout io.Writer) error {
	in := bufio.NewReaderSize(stdin, readBuffer)
	switch err := firstByte(ctx, in); {
	case errors.Is(err, io.EOF):
		return nil // the client said nothing: there is nothing to bridge
	case err != nil:
		return err
	}
	addr, token, err := find()
	if err != nil {
		return &NotAttachedError{err}
	}
	conn, welcome, err := greet(ctx, addr, token)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return &NotAttachedError{err}
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()

	var stdinEnded atomic.Bool
	go func() {
		io.Copy(conn, in)
		stdinEnded.Store(true) // before the half-close, so the window's close after it reads as normal
		conn.CloseWrite()
	}()
	_, copyErr := io.Copy(stdout, conn)
	switch {
	case ctx.Err() != nil: // a signal: the client is ending us, the window is fine
		return ctx.Err()
	case welcome.State == registry.WelcomeFull:
		return &FullError{Attached: welcome.Attached}
	case !stdinEnded.Load() && copyErr != nil:
		return fmt.Errorf("%w at %s: %v", ErrWindowGone, addr, copyErr)
	case !stdinEnded.Load():
		return fmt.Errorf("%w at %s", ErrWindowGone, addr)
	case copyErr != nil:
		return fmt.Errorf("copy the window's replies to stdout: %w", copyErr)
	}
	return nil
}

// firstByte waits until in has a byte to read, stdin ends (io.EOF) or ctx
// ends. A read that ctx abandons goes on in the background until stdin
// gives something or closes; the process is ending by then.
func firstByte(ctx context.Context, in *bufio.Reader) error {
	peeked := make(chan error, 1)
	go func() {
		_, err := in.Peek(1)
		peeked <- err
	}()
	select {
	case err := <-peeked:
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("read the client's first message from stdin: %w", err)
		}
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// greet connects to the window at addr and runs the handshake, trying
// again for up to busyWait while the window refuses it as busy.
func greet(ctx context.Context, addr, token string) (*net.TCPConn, registry.Welcome, error) {
	deadline := time.Now().Add(busyWait)
	for pause := 50 * time.Millisecond; ; pause = min(2*pause, time.Second) {
		d := net.Dialer{Timeout: dialTimeout}
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return nil, registry.Welcome{}, fmt.Errorf("connect to the Trestle window at %s: %w", addr, err)
		}
		conn := c.(*net.TCPConn)
		welcome, err := registry.Greet(conn, token, false, greetTimeout)
		if err == nil {
			return conn, welcome, nil
		}
		conn.Close()
		var re *registry.RefusedError
		if !errors.As(err, &re) || re.Code != registry.CodeBusy || time.Now().Add(pause).After(deadline) {
			return nil, registry.Welcome{}, fmt.Errorf("at %s: %w", addr, err)
		}
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return nil, registry.Welcome{}, ctx.Err()
		}
	}
}
