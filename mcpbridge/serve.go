package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

const (
	// MaxLineBytes is the longest JSON-RPC line a session accepts. A longer
	// one gets an error and the session goes on with the next line.
	MaxLineBytes = 16 << 20
	// outQueue is how many finished responses may wait for the writer.
	outQueue = 64
	// inFlight is how many requests of one session run at once; more wait
	// their turn, so a client that floods the window cannot take every core
	// from the others (the read loop goes on, so cancellations still arrive).
	inFlight = 4
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
// side (after answering everything it asked), the writer fails or ctx ends.
// Each request is handled on its own goroutine; one writer owns st.w and
// writes the session's notifications and responses in order.
func serveSession(ctx context.Context, srv *server.MCPServer, sess *session, st stream, logger *log.Logger) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := srv.RegisterSession(ctx, sess); err != nil {
		return fmt.Errorf("register MCP session %s: %w", sess.id, err)
	}
	defer srv.UnregisterSession(context.Background(), sess.id)

	out := make(chan []byte, outQueue)
	writerDone := make(chan error, 1)
	go func() {
		err := writeLoop(st.w, st.writeTimeout, out, sess.notifications)
		if err != nil {
			cancel()
			if st.close != nil {
				st.close()
			}
		}
		writerDone <- err
	}()
	send := func(b []byte) {
		select {
		case out <- b:
		case <-ctx.Done():
		}
	}
	d := &dispatcher{srv: srv, ctx: srv.WithContext(ctx, sess), send: send, logger: logger,
		turns: make(chan struct{}, inFlight)}
	readErr := readLines(st.r, d.line, d.tooLong)
	d.wg.Wait() // answer what the client already asked before closing
	close(out)
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
// onTooLong for each line over MaxLineBytes, whose bytes are skipped. It
// returns nil at EOF.
func readLines(r *bufio.Reader, onLine func([]byte), onTooLong func(n int)) error {
	var line []byte
	skipped := 0
	for {
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
// already queued, so a handler's progress always precedes its result.
func writeLoop(w io.Writer, timeout time.Duration, out <-chan []byte, notes <-chan mcp.JSONRPCNotification) error {
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
	for {
		select {
		case n := <-notes:
			if err := write(marshalLine(n)); err != nil {
				return err
			}
		case b, ok := <-out:
			if err := drain(); err != nil {
				return err
			}
			if !ok {
				return nil
			}
			if err := write(b); err != nil {
				return err
			}
		}
	}
}

func marshalLine(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return errorLine(nil, mcp.INTERNAL_ERROR, "internal error: encode message: "+err.Error())
	}
	return b
}

// errorLine is one JSON-RPC error response.
func errorLine(id any, code int, message string) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: mcp.JSONRPC_VERSION, ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	return b
}

// dispatcher hands each line of one session to the MCP server.
type dispatcher struct {
	srv    *server.MCPServer
	ctx    context.Context // carries the session
	send   func([]byte)
	logger *log.Logger
	wg     sync.WaitGroup
	turns  chan struct{} // a slot per running request
}

func (d *dispatcher) tooLong(n int) {
	d.send(errorLine(nil, mcp.INVALID_REQUEST, fmt.Sprintf(
		"message of %d bytes is over the %d byte line limit and was skipped; send smaller messages", n, MaxLineBytes)))
}

func (d *dispatcher) line(line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	var base struct {
		ID     any             `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &base); err != nil {
		d.send(errorLine(nil, mcp.PARSE_ERROR, "parse error: "+err.Error()+"; each line must be one JSON-RPC message"))
		return
	}
	switch {
	case base.Method == "" && (base.Result != nil || base.Error != nil):
		return // a reply to a server request; Trestle sends none yet
	case base.Method == "":
		d.send(errorLine(base.ID, mcp.INVALID_REQUEST, "invalid request: no method"))
	case base.ID == nil:
		d.handle(line, nil) // notifications run in order, on the read loop
	case base.Method == "initialize":
		d.handle(line, base.ID) // on the read loop too: what follows runs after it
	default:
		msg := bytes.Clone(line)
		d.wg.Go(func() {
			select {
			case d.turns <- struct{}{}:
				defer func() { <-d.turns }()
			case <-d.ctx.Done():
				return
			}
			d.handle(msg, base.ID)
		})
	}
}

func (d *dispatcher) handle(msg []byte, id any) {
	defer func() {
		if r := recover(); r != nil {
			d.logger.Printf("mcp: panic handling %.200s: %v", msg, r)
			if id != nil {
				d.send(errorLine(id, mcp.INTERNAL_ERROR, fmt.Sprintf("internal error: %v", r)))
			}
		}
	}()
	resp := explainUnknownTool(d.srv, msg, d.srv.HandleMessage(d.ctx, json.RawMessage(msg)))
	if resp != nil {
		d.send(marshalLine(resp))
	}
}
