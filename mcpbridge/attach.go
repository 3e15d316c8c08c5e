package mcpbridge

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync/atomic"
	"time"
)

// dialTimeout bounds connecting to a window on loopback.
const dialTimeout = 3 * time.Second

// ErrWindowGone means the window closed the connection while the client
// still had stdin open.
var ErrWindowGone = errors.New("the Trestle window closed the connection")

// Attach is the --mcp-attach bridge: it connects to the window at addr,
// sends the token line, then copies bytes both ways without decoding them.
// When stdin ends it half-closes the socket and waits for the remaining
// replies, returning nil. When the window goes first it returns an error
// wrapping ErrWindowGone.
func Attach(ctx context.Context, addr, token string, stdin io.Reader, stdout io.Writer) error {
	d := net.Dialer{Timeout: dialTimeout}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("connect to the Trestle window at %s: %w", addr, err)
	}
	conn := c.(*net.TCPConn)
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()

	line, _ := json.Marshal(TokenLine{Token: token})
	if _, err := conn.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("send token to %s: %w", addr, err)
	}
	var stdinEnded atomic.Bool
	go func() {
		io.Copy(conn, stdin)
		stdinEnded.Store(true) // before the half-close, so the window's close after it reads as normal
		conn.CloseWrite()
	}()
	_, copyErr := io.Copy(stdout, conn)
	switch {
	case !stdinEnded.Load() && copyErr != nil:
		return fmt.Errorf("%w at %s: %v", ErrWindowGone, addr, copyErr)
	case !stdinEnded.Load():
		return fmt.Errorf("%w at %s", ErrWindowGone, addr)
	case copyErr != nil:
		return fmt.Errorf("copy the window's replies to stdout: %w", copyErr)
	}
	return nil
}

// ServeStdio serves one MCP session over r and w (the --mcp mode) until r
// ends and every request has been answered.
func ServeStdio(ctx context.Context, srv *Server, r io.Reader, w io.Writer) error {
	sess := newSession("stdio", nil)
	return serveSession(ctx, srv.mcp, sess, stream{r: bufio.NewReaderSize(r, readBuffer), w: w}, srv.logger)
}
