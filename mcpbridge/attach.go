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

// FullError means the window refused the client because Attached clients
// already hold every place. The client's first request was answered with
// the refusal before Attach returned it.
type FullError struct{ Attached int }

func (e *FullError) Error() string {
	return fmt.Sprintf("refused: %d agents are attached to the window", e.Attached)
}

// Attach is the --mcp-attach bridge: it connects to the window at addr,
// sends the token line and waits for the window's welcome (nothing of the
// client's is sent to a process that does not answer as the window does),
// then copies bytes both ways without decoding them. When stdin ends it
// half-closes the socket and waits for the remaining replies, returning
// nil. When the window goes first it returns an error wrapping
// ErrWindowGone; a refused token is a *registry.RefusedError, a silent or
// foreign listener registry.ErrNotTrestle, a full window a *FullError.
func Attach(ctx context.Context, addr, token string, stdin io.Reader, stdout io.Writer) error {
	conn, welcome, err := greet(ctx, addr, token)
	if err != nil {
		return err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()

	var stdinEnded atomic.Bool
	go func() {
		io.Copy(conn, stdin)
		stdinEnded.Store(true) // before the half-close, so the window's close after it reads as normal
		conn.CloseWrite()
	}()
	_, copyErr := io.Copy(stdout, conn)
	switch {
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

// ServeStdio serves one MCP session over r and w (the --mcp mode) until r
// ends and every request has been answered.
func ServeStdio(ctx context.Context, srv *Server, r io.Reader, w io.Writer) error {
	sess := newSession("stdio", nil)
	return serveSession(ctx, srv.mcp, sess, stream{r: bufio.NewReaderSize(r, readBuffer), w: w}, srv.logger)
}
