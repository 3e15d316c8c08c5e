package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// This file is the session's side of requests the server sends the client
// (roots/list, elicitation/create). mcp-go's API for them is the session:
// MCPServer.RequestRoots and RequestElicitation check the request and the
// protocol version, then call the session's ListRoots or RequestElicitation,
// and each transport carries the request and matches the client's answer
// to it (as mcp-go's own stdio transport does). Here that is one pending
// call per request id, answered by the dispatcher when the client's reply
// line comes, and always bounded: by the caller's context, by
// maxClientWait, and by the end of the session.

// maxClientWait bounds every request to the client: one that never answers
// costs the caller this long at most. A person answering an elicitation
// may take a while; a caller that wants less passes a shorter context.
var maxClientWait = 2 * time.Minute

// errClientGone is the answer to a request the client can no longer answer:
// its session ended, or it closed its side of the stream.
var errClientGone = errors.New("the client closed the session before it answered")

// asking holds a session's requests to its client that wait for an answer.
// Safe for concurrent use.
type asking struct {
	mu      sync.Mutex
	send    func([]byte) // writes a line to the client; nil until the session serves
	next    int64
	pending map[string]chan reply // by idKey of the request id
	ended   bool
}

// reply is the client's answer to one request: its result, or its error.
type reply struct {
	result json.RawMessage
	err    error
}

// start lets requests be sent through send.
func (a *asking) start(send func([]byte)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.send, a.pending = send, map[string]chan reply{}
}

// end fails every waiting request with errClientGone, and every later one.
func (a *asking) end() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ended = true
	for key, ch := range a.pending {
		ch <- reply{err: errClientGone}
		delete(a.pending, key)
	}
}

// call sends the client the request method with params and decodes its
// result into out. It returns when the client answers, ctx ends,
// maxClientWait passes or the session ends; a request given up on is
// cancelled at the client (notifications/cancelled).
func (a *asking) call(ctx context.Context, method string, params, out any) error {
	id, ch, err := a.open()
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	a.send(marshalLine(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int64  `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{mcp.JSONRPC_VERSION, id, method, params}))
	wait := time.NewTimer(maxClientWait)
	defer wait.Stop()
	var r reply
	select {
	case r = <-ch:
	case <-ctx.Done():
		a.giveUp(id, "the server no longer needs the answer")
		return fmt.Errorf("%s: %w", method, ctx.Err())
	case <-wait.C:
		a.giveUp(id, "no answer in "+maxClientWait.String())
		return fmt.Errorf("%s: the client did not answer within %s", method, maxClientWait)
	}
	if r.err != nil {
		return fmt.Errorf("%s: %w", method, r.err)
	}
	if err := json.Unmarshal(r.result, out); err != nil {
		return fmt.Errorf("%s: the client's answer does not have the shape of its result: %s", method, answerShape(err))
	}
	return nil
}

// answerShape says what is wrong with a result that did not decode.
func answerShape(err error) string {
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te) && te.Field != "":
		return fmt.Sprintf("%s must be %s, not %s", te.Field, article(jsonKind(te.Type.Kind())), article(te.Value))
	case errors.As(err, &te):
		return "the result must be an object, not " + article(te.Value)
	}
	return "there is no result, or it is not valid JSON"
}

// open numbers a new request and records it as waiting.
func (a *asking) open() (int64, chan reply, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ended || a.send == nil {
		return 0, nil, errClientGone
	}
	a.next++
	ch := make(chan reply, 1)
	a.pending[idKey(a.next)] = ch
	return a.next, ch, nil
}

// giveUp forgets request id and tells the client it may stop working on it.
func (a *asking) giveUp(id int64, reason string) {
	a.mu.Lock()
	_, waiting := a.pending[idKey(id)]
	delete(a.pending, idKey(id))
	send := a.send
	a.mu.Unlock()
	if waiting {
		send(marshalLine(mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{
			Method: string(mcp.MethodNotificationCancelled),
			Params: mcp.NotificationParams{AdditionalFields: map[string]any{"requestId": id, "reason": reason}},
		}}))
	}
}

// answer hands the reply line to the request it answers, and reports
// whether one was waiting for it.
func (a *asking) answer(id any, line []byte) bool {
	a.mu.Lock()
	ch, ok := a.pending[idKey(id)]
	delete(a.pending, idKey(id))
	a.mu.Unlock()
	if !ok {
		return false
	}
	var m struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	switch err := json.Unmarshal(line, &m); {
	case err != nil:
		ch <- reply{err: fmt.Errorf("the client's answer is not a JSON-RPC response: %s", jsonErrorMessage(err))}
	case m.Error != nil:
		ch <- reply{err: fmt.Errorf("the client answered with error %d: %q", m.Error.Code, m.Error.Message)}
	default:
		ch <- reply{result: m.Result}
	}
	return true
}

var (
	_ server.SessionWithRoots       = (*session)(nil)
	_ server.SessionWithElicitation = (*session)(nil)
)

// ListRoots asks the client for its roots (mcp-go's RequestRoots calls it).
func (s *session) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	var res mcp.ListRootsResult
	if err := s.asking.call(ctx, string(mcp.MethodListRoots), nil, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// RequestElicitation asks the client to ask its user (mcp-go's
// RequestElicitation calls it, having checked the request).
func (s *session) RequestElicitation(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	var res mcp.ElicitationResult
	if err := s.asking.call(ctx, string(mcp.MethodElicitationCreate), req.Params, &res); err != nil {
		return nil, err
	}
	return &res, nil
}
