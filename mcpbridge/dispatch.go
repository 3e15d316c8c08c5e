package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

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
	strays atomic.Int32  // answers to no request of ours (reply)

	mu      sync.Mutex
	flights map[string]*flight // requests queued or running, by id
	closed  bool               // the session is ending: start no more requests
}

// flight is one request between its line and its answer.
type flight struct{ cancelled bool }

// message is what the dispatcher reads of a line before handing it on: no
// more than it needs to route it (the id, the method, whether it is a
// reply). Decoding a line once for everyone is not open to us: mcp-go's
// HandleMessage takes the line's bytes and decodes them itself (its
// envelope, the protocol's _meta, then the typed request, whose tool
// arguments it keeps raw as well, see typed). So this peek only scans the
// line and copies nothing of its params.
type message struct {
	ID     any     `json:"id"`
	Method string  `json:"method"`
	Result present `json:"result"`
	Error  present `json:"error"`
}

// present records that a member is there (even as null) without keeping it.
type present bool

func (p *present) UnmarshalJSON([]byte) error { *p = true; return nil }

// cancelledID is the requestId of the notifications/cancelled line, else
// nil. Cancellations are short: decoding one a second time costs nothing.
func cancelledID(line []byte) any {
	var m struct {
		Params struct {
			RequestID any `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	return m.Params.RequestID
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
	values, depth := shapeOf(line)
	if msg := shapeProblem(values, depth); msg != "" {
		d.send(errorLine(safeID(line), mcp.INVALID_REQUEST, msg))
		return
	}
	cost := lineCost(len(line), values)
	if line[0] == '[' {
		d.batch(line, cost)
		return
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		d.send(errorLine(requestID(line), jsonErrorCode(err), jsonErrorMessage(err)))
		return
	}
	switch {
	case m.Method == "" && bool(m.Result || m.Error):
		d.reply(m.ID, line)
	case m.Method == "":
		d.send(errorLine(m.ID, mcp.INVALID_REQUEST, "invalid request: no method"))
	case m.ID == nil:
		if m.Method == string(mcp.MethodNotificationCancelled) {
			d.cancel(cancelledID(line))
		}
		d.handle(line) // notifications run in order, on the read loop
	case m.Method == "initialize":
		d.send(d.handle(line)) // on the read loop too: what follows runs after it
	default:
		d.request(line, m.ID, cost)
	}
}

// reply hands the client's answer to the request of ours it answers; an
// answer nobody waits for (late, or to no request) is dropped, and the
// first few are logged (a client that sends nothing else cannot fill the
// log).
func (d *dispatcher) reply(id any, line []byte) {
	if d.sess.asking.answer(id, line) {
		return
	}
	if n := d.strays.Add(1); n <= maxStrayLogs {
		d.logger.Printf("mcp: %s answered request %v, which no one is waiting for (late, cancelled or never sent); dropped", d.sess.id, id)
	}
}

// maxStrayLogs is how many stray answers of one session are logged.
const maxStrayLogs = 3

// request starts one request on its own goroutine. The read loop has
// waited for room in the session's budget before reading it; it holds its
// place there until it is answered.
func (d *dispatcher) request(line []byte, id any, cost int) {
	msg := bytes.Clone(line)
	key, f := d.fly(id)
	d.start(cost, func() {
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

// start runs h on its own goroutine with a place of cost bytes in the
// session's budget, unless the session is ending.
func (d *dispatcher) start(cost int, h func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	d.sess.budget.take(cost)
	d.wg.Go(func() {
		defer d.sess.budget.done(cost)
		h()
	})
}

// close lets no more requests start and waits for those started.
func (d *dispatcher) close() {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	d.wg.Wait()
}

// run calls h when a turn is free and the session's unwritten answers
// leave room, and returns its answer; nil when the session ends first.
func (d *dispatcher) run(h func() []byte) []byte {
	select {
	case d.turns <- struct{}{}:
		defer func() { <-d.turns }()
	case <-d.ctx.Done():
		return nil
	}
	if !d.sess.budget.waitToStart(d.ctx) { // answers the client has not read yet hold too much
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
func (d *dispatcher) batch(line []byte, cost int) {
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
	d.start(cost, func() {
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
		case m.Method == "" && bool(m.Result || m.Error):
			d.reply(m.ID, item)
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
