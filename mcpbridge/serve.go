package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

const (
	// MaxLineBytes is the longest JSON-RPC line a session accepts. A longer
	// one gets an error and the session goes on with the next line.
	MaxLineBytes = 16 << 20
	// inFlight is how many requests of one session run at once; more wait
	// their turn, so a client that floods the window cannot take every core
	// from the others. What a session may hold is bounded in budget.go.
	inFlight = 4
	// keptLineBuffer is the largest line buffer a session keeps between
	// lines: after a bigger line the buffer is dropped, not held for the
	// session's life.
	keptLineBuffer = 64 << 10
)

// defaultWriteTimeout bounds one write to a client: a client that stops
// reading is dropped rather than left holding its handlers and memory.
const defaultWriteTimeout = 10 * time.Second

// stream is one client's byte streams: a TCP connection, or stdin/stdout.
type stream struct {
	r            *bufio.Reader
	w            io.Writer
	close        func()        // unblocks a pending read; may be nil (stdio)
	writeTimeout time.Duration // per write, when w has a write deadline
}

// serveSession runs one MCP session over st until the client closes its
// side (after answering everything it asked), the writer fails or ctx ends
// (then it returns without waiting for a read that st.close cannot end,
// as stdin's cannot). Each request is handled on its own goroutine; one
// writer owns st.w and writes the session's notifications and responses
// in order, and the requests the server sends the client (asking.go),
// whose answers the read loop hands back; once nothing more can be read,
// a request still waiting for its answer fails at once. While the session
// holds all its budget allows, it reads no more lines: the client waits,
// and nothing it sent is refused.
func serveSession(ctx context.Context, srv *server.MCPServer, sess *session, st stream, logger *log.Logger) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := srv.RegisterSession(ctx, sess); err != nil {
		return fmt.Errorf("register MCP session %s: %w", sess.id, err)
	}
	defer srv.UnregisterSession(context.Background(), sess.id)
	defer giveBack(&sess.budget)

	out := make(chan []byte, maxCalls)
	finish := make(chan struct{}) // no more answers will be sent
	writerDone := make(chan error, 1)
	go func() {
		err := writeLoop(st.w, st.writeTimeout, out, finish, sess.notifications, sess.budget.written)
		if err != nil {
			cancel()
			if st.close != nil {
				st.close()
			}
		}
		writerDone <- err
	}()
	send := func(b []byte) {
		if b == nil {
			return
		}
		sess.budget.queued(len(b))
		select {
		case out <- b:
		case <-ctx.Done():
			sess.budget.written(len(b))
		}
	}
	sess.asking.start(send)
	d := &dispatcher{srv: srv, sess: sess, ctx: srv.WithContext(ctx, sess), send: send, logger: logger,
		turns: make(chan struct{}, inFlight), flights: map[string]*flight{}}
	readDone := make(chan error, 1)
	go func() {
		readDone <- readLines(st.r, func() bool { return sess.budget.waitToRead(ctx) }, d.line, d.tooLong)
	}()
	var readErr error
	select {
	case readErr = <-readDone:
	case <-ctx.Done():
		if st.close != nil {
			st.close()
		}
	}
	sess.asking.end() // nothing more will be read: no answer can come
	d.close()         // answer what the client already asked before closing
	close(finish)
	writeErr := <-writerDone
	if writeErr != nil {
		return fmt.Errorf("write to MCP client %s: %w", sess.id, writeErr)
	}
	if readErr != nil && ctx.Err() == nil {
		return fmt.Errorf("read from MCP client %s: %w", sess.id, readErr)
	}
	return nil
}

// readLines calls onLine for each line of r (without its newline) and
// onTooLong for each line over MaxLineBytes, whose bytes are skipped.
// Before each line it calls ready, and stops when that returns false. It
// returns nil at EOF.
func readLines(r *bufio.Reader, ready func() bool, onLine func([]byte), onTooLong func(n int)) error {
	var line []byte
	skipped := 0
	for {
		if len(line) == 0 && skipped == 0 && !ready() {
			return nil
		}
		chunk, err := r.ReadSlice('\n')
		switch {
		case skipped > 0:
			skipped += len(chunk)
		case len(line)+len(chunk) > MaxLineBytes+1:
			skipped = len(line) + len(chunk)
			line = line[:0]
		default:
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if skipped > 0 {
			onTooLong(skipped)
			skipped = 0
		} else if len(line) > 0 {
			onLine(bytes.TrimRight(line, "\r\n"))
		}
		if cap(line) > keptLineBuffer {
			line = nil
		}
		line = line[:0]
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// writeLoop owns w. Before each response it writes the notifications
// already queued, so a handler's progress always precedes its result. It
// calls written with each response's size once it is written, and returns
// once finish is closed and every response sent before it is written.
func writeLoop(w io.Writer, timeout time.Duration, out <-chan []byte, finish <-chan struct{}, notes <-chan mcp.JSONRPCNotification, written func(int)) error {
	bw := bufio.NewWriter(w)
	write := func(b []byte) error {
		if d, ok := w.(interface{ SetWriteDeadline(time.Time) error }); ok {
			d.SetWriteDeadline(time.Now().Add(timeout))
		}
		bw.Write(b)
		bw.WriteByte('\n')
		return bw.Flush()
	}
	drain := func() error {
		for {
			select {
			case n := <-notes:
				if err := write(marshalLine(n)); err != nil {
					return err
				}
			default:
				return nil
			}
		}
	}
	answer := func(b []byte) error {
		defer written(len(b))
		if err := drain(); err != nil {
			return err
		}
		return write(b)
	}
	for {
		select {
		case n := <-notes:
			if err := write(marshalLine(n)); err != nil {
				return err
			}
		case b := <-out:
			if err := answer(b); err != nil {
				return err
			}
		case <-finish:
			for {
				select {
				case b := <-out:
					if err := answer(b); err != nil {
						return err
					}
				default:
					return drain()
				}
			}
		}
	}
}

// ServeStdio serves one MCP session over r and w (the --mcp mode) until r
// ends and every request has been answered.
func ServeStdio(ctx context.Context, srv *Server, r io.Reader, w io.Writer) error {
	sess := newSession("stdio", nil)
	return serveSession(ctx, srv.mcp, sess, stream{r: bufio.NewReaderSize(r, readBuffer), w: w}, srv.logger)
}
