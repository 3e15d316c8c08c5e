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
	"reflect"
	"regexp"
	"strings"
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
		if b == nil {
			return
		}
		select {
		case out <- b:
		case <-ctx.Done():
		}
	}
	d := &dispatcher{srv: srv, sess: sess, ctx: srv.WithContext(ctx, sess), send: send, logger: logger,
		turns: make(chan struct{}, inFlight), flights: map[string]*flight{}}
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

// batchProtocol is the one MCP version with JSON-RPC batches; later
// versions removed them.
const batchProtocol = "2025-03-26"

// dispatcher hands each line of one session to the MCP server.
type dispatcher struct {
	srv    *server.MCPServer
	sess   *session
	ctx    context.Context // carries the session
	send   func([]byte)
	logger *log.Logger
	wg     sync.WaitGroup
	turns  chan struct{} // a slot per running request

	mu      sync.Mutex
	flights map[string]*flight // requests queued or running, by id
}

// flight is one request between its line and its answer.
type flight struct{ cancelled bool }

// message is what the dispatcher reads of a line before handing it on.
type message struct {
	ID     any             `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
	Params json.RawMessage `json:"params"`
}

// cancelledID is the requestId of a notifications/cancelled, else nil.
func (m message) cancelledID() any {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(m.Params, &p) != nil {
		return nil
	}
	return p.RequestID
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
	if line[0] == '[' {
		d.batch(line)
		return
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		d.send(errorLine(requestID(line), jsonErrorCode(err), jsonErrorMessage(err)))
		return
	}
	switch {
	case m.Method == "" && (m.Result != nil || m.Error != nil):
		return // a reply to a server request; Trestle sends none yet
	case m.Method == "":
		d.send(errorLine(m.ID, mcp.INVALID_REQUEST, "invalid request: no method"))
	case m.ID == nil:
		if m.Method == string(mcp.MethodNotificationCancelled) {
			d.cancel(m.cancelledID())
		}
		d.handle(line) // notifications run in order, on the read loop
	case m.Method == "initialize":
		d.send(d.handle(line)) // on the read loop too: what follows runs after it
	default:
		d.request(line, m.ID)
	}
}

// request queues one request: it takes its place in the session's queue
// before anything is copied or started, and is refused when there is none.
func (d *dispatcher) request(line []byte, id any) {
	size := len(line)
	if !d.sess.queue.take(size) {
		d.send(errorLine(id, codeRefused, fmt.Sprintf(
			"refused: this session already has %d requests or %d MiB waiting for an answer; wait for answers before sending more",
			maxQueued, maxQueuedBytes>>20)))
		return
	}
	msg := bytes.Clone(line)
	key, f := d.fly(id)
	d.wg.Go(func() {
		defer d.sess.queue.done(size)
		resp := d.run(func() []byte {
			if d.cancelled(f) { // cancelled while it waited for a turn: never run
				return nil
			}
			return d.handle(msg)
		})
		if d.land(key, f) && resp != nil {
			d.send(resp)
		}
	})
}

// run calls h when a turn is free and returns its answer; nil when the
// session ends first.
func (d *dispatcher) run(h func() []byte) []byte {
	select {
	case d.turns <- struct{}{}:
		defer func() { <-d.turns }()
	case <-d.ctx.Done():
		return nil
	}
	return h()
}

// fly records a request as in flight, so notifications/cancelled can find it.
func (d *dispatcher) fly(id any) (string, *flight) {
	key, f := idKey(id), &flight{}
	d.mu.Lock()
	d.flights[key] = f
	d.mu.Unlock()
	return key, f
}

// land ends a request's flight and reports whether it is still to be
// answered: a cancelled request gets no response, as the protocol says.
func (d *dispatcher) land(key string, f *flight) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.flights[key] == f {
		delete(d.flights, key)
	}
	return !f.cancelled
}

// cancel marks the request id as cancelled; mcp-go cancels its context.
func (d *dispatcher) cancel(id any) {
	if id == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if f, ok := d.flights[idKey(id)]; ok {
		f.cancelled = true
	}
}

func (d *dispatcher) cancelled(f *flight) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return f.cancelled
}

// idKey names a JSON-RPC id: 7 and "7" are different ids.
func idKey(id any) string {
	if s, ok := id.(string); ok {
		return "s:" + s
	}
	return fmt.Sprintf("n:%v", id)
}

// batch handles a JSON-RPC batch: answered as a batch for a session that
// negotiated 2025-03-26, refused plainly for any other version.
func (d *dispatcher) batch(line []byte) {
	if v := d.sess.ProtocolVersion(); v != batchProtocol {
		if v == "" {
			v = "none yet"
		}
		d.send(errorLine(nil, mcp.INVALID_REQUEST, fmt.Sprintf(
			"invalid request: JSON-RPC batches are part of MCP protocol version %s only, and this session negotiated %s; send one message per line",
			batchProtocol, v)))
		return
	}
	var items []json.RawMessage
	if err := json.Unmarshal(line, &items); err != nil {
		d.send(errorLine(nil, jsonErrorCode(err), jsonErrorMessage(err)))
		return
	}
	if len(items) == 0 {
		d.send(errorLine(nil, mcp.INVALID_REQUEST, "invalid request: an empty batch; send at least one message"))
		return
	}
	size := len(line)
	if !d.sess.queue.take(size) {
		d.send(errorLine(nil, codeRefused, fmt.Sprintf(
			"refused: this session already has %d requests or %d MiB waiting for an answer; wait for answers before sending more",
			maxQueued, maxQueuedBytes>>20)))
		return
	}
	d.wg.Go(func() {
		defer d.sess.queue.done(size)
		if resp := d.run(func() []byte { return d.batchItems(items) }); resp != nil {
			d.send(resp)
		}
	})
}

// batchItems handles a batch's messages in order and joins the answers
// into one array, or returns nil when there are none (only notifications).
func (d *dispatcher) batchItems(items []json.RawMessage) []byte {
	var answers [][]byte
	for _, item := range items {
		var m message
		switch err := json.Unmarshal(item, &m); {
		case err != nil:
			answers = append(answers, errorLine(requestID(item), jsonErrorCode(err), jsonErrorMessage(err)))
		case m.Method == "" && (m.Result != nil || m.Error != nil):
		case m.Method == "":
			answers = append(answers, errorLine(m.ID, mcp.INVALID_REQUEST, "invalid request: no method"))
		case m.Method == "initialize":
			answers = append(answers, errorLine(m.ID, mcp.INVALID_REQUEST, "invalid request: initialize may not be part of a batch; send it alone"))
		default:
			if resp := d.handle(item); resp != nil && m.ID != nil {
				answers = append(answers, resp)
			}
		}
	}
	if len(answers) == 0 {
		return nil
	}
	return append(append([]byte{'['}, bytes.Join(answers, []byte{','})...), ']')
}

// jsonErrorCode is the JSON-RPC code for a line json could not decode:
// parse error for bad JSON, invalid request for the wrong shape.
func jsonErrorCode(err error) int {
	var se *json.SyntaxError
	if errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) {
		return mcp.PARSE_ERROR
	}
	return mcp.INVALID_REQUEST
}

// jsonErrorMessage says what is wrong with a line in words an agent can
// act on, never in Go's types.
func jsonErrorMessage(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("parse error: the line is not valid JSON (at byte %d); each line must be one JSON-RPC message", se.Offset)
	case errors.As(err, &te) && te.Field != "":
		return fmt.Sprintf("invalid request: %s must be %s, not %s", te.Field, article(jsonKind(te.Type.Kind())), article(te.Value))
	case errors.As(err, &te):
		return fmt.Sprintf("invalid request: a JSON-RPC message must be an object, not %s", article(te.Value))
	default:
		return "parse error: the line is not valid JSON; each line must be one JSON-RPC message"
	}
}

// article puts "a" or "an" before a JSON kind.
func article(kind string) string {
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// goTypeError matches encoding/json's type errors, which mcp-go passes on
// in its error messages: "json: cannot unmarshal number into Go struct
// field CallToolRequest.params.name of type string".
var goTypeError = regexp.MustCompile(`json: cannot unmarshal (\w+) into Go (?:struct field [\w]+\.([\w.]+)|value) of type (\S+)`)

// plainError rewrites Go's type errors in a message an agent reads into
// JSON words: "params.name must be a string, not a number".
func plainError(msg string) string {
	return goTypeError.ReplaceAllStringFunc(msg, func(m string) string {
		g := goTypeError.FindStringSubmatch(m)
		field := g[2]
		if field == "" {
			field = "the value"
		}
		return fmt.Sprintf("%s must be %s, not %s", field, article(goTypeKind(g[3])), article(g[1]))
	})
}

// goTypeKind names a Go type, as encoding/json prints it, as JSON does.
func goTypeKind(t string) string {
	switch {
	case t == "string":
		return "string"
	case t == "bool":
		return "boolean"
	case strings.HasPrefix(t, "[]"):
		return "array"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"), strings.HasPrefix(t, "float"):
		return "number"
	default:
		return "object"
	}
}

// jsonKind names a Go kind as JSON does.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "string"
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Bool:
		return "boolean"
	default:
		return "number"
	}
}

// handle hands one message to the server and returns its answer, nil for
// none. A panic is answered as an internal error.
func (d *dispatcher) handle(msg []byte) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			d.logger.Printf("mcp: panic handling %.200s: %v", msg, r)
			if id := requestID(msg); id != nil {
				out = errorLine(id, mcp.INTERNAL_ERROR, fmt.Sprintf("internal error: %v", r))
			}
		}
	}()
	resp := explainUnknownTool(d.srv, msg, d.srv.HandleMessage(d.ctx, json.RawMessage(msg)))
	if resp == nil {
		return nil
	}
	if e, ok := resp.(mcp.JSONRPCError); ok {
		e.Error.Message = plainError(e.Error.Message)
		resp = e
	}
	return marshalLine(resp)
}
