package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/agent"
	"trestle/app/errdefs"
)

// This file holds what every tool uses: binding a call's arguments, the
// annotations, the caller's session and name, and the results every tool
// answers with.

// sessionID is the calling MCP session's id, "" outside a session.
func sessionID(ctx context.Context) string {
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		return cs.SessionID()
	}
	return ""
}

// sessionOwner identifies the calling session as the owner of what it
// proposes: unique to the connection, in this process and any other (ids
// like conn-1 come again after a listener restart, and every headless
// server's is stdio), and never chosen by the client. "" outside a session.
func sessionOwner(ctx context.Context) string {
	if s, ok := server.ClientSessionFromContext(ctx).(*session); ok {
		return s.owner
	}
	return sessionID(ctx)
}

// clientName is the name the calling session gave: at initialize, or with
// its first request from protocol 2026-07-28 on (session.SetClientInfo
// keeps the first); "an agent" when it gave none.
func clientName(ctx context.Context) string {
	if cs, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		if n := cs.GetClientInfo().Name; n != "" {
			return n
		}
	}
	return "an agent"
}

// caller is who makes the call, as app/agent knows callers: the client's
// name, the session, its owner identity, and the call's progress when it
// asked for progress.
func (s *Server) caller(ctx context.Context) agent.Caller {
	c := agent.Caller{Client: clientName(ctx), Session: sessionID(ctx), Owner: sessionOwner(ctx)}
	if p := newProgress(ctx); p.token != nil && p.srv != nil {
		c.Progress = p
	}
	return c
}

// progressTokenKey carries the call's progress token, when it has one.
type progressTokenKey struct{}

// typed binds a call's arguments to T and hands them to h. Arguments that
// do not fit T are a problem the model can fix, not a Go error.
func typed[T any](h func(context.Context, T) *mcp.CallToolResult) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args T
		if msg := decodeArgs(argumentsOf(req), &args); msg != "" {
			return fail(stateProblem, "%s", msg), nil
		}
		if m := req.Params.Meta; m != nil && m.ProgressToken != nil {
			ctx = context.WithValue(ctx, progressTokenKey{}, m.ProgressToken)
		}
		return h(ctx, args), nil
	}
}

// argumentsOf is a call's arguments as they came: mcp-go keeps the raw
// JSON of a call read from the wire beside its decoded map, so typed
// decodes them once, straight into the tool's params, rather than
// encoding the map again to decode that. A call made in process has only
// the map.
func argumentsOf(req mcp.CallToolRequest) any {
	if raw := req.Params.RawArguments; len(raw) > 0 {
		return raw
	}
	return req.Params.Arguments
}

// hints sets every annotation explicitly (mcp-go defaults every tool to
// destructive and open-world) for a tool that stays inside Trestle.
func hints(title string, readOnly, destructive, idempotent bool) mcp.ToolOption {
	return annotate(title, readOnly, destructive, idempotent, false)
}

// runsCode sets the annotations of a tool that runs the project's code
// (evaluations, tasks): open-world, since that code may do anything.
func runsCode(title string, destructive, idempotent bool) mcp.ToolOption {
	return annotate(title, false, destructive, idempotent, true)
}

func annotate(title string, readOnly, destructive, idempotent, openWorld bool) mcp.ToolOption {
	return mcp.WithToolAnnotation(mcp.ToolAnnotation{
		Title:           title,
		ReadOnlyHint:    mcp.ToBoolPtr(readOnly),
		DestructiveHint: mcp.ToBoolPtr(destructive),
		IdempotentHint:  mcp.ToBoolPtr(idempotent),
		OpenWorldHint:   mcp.ToBoolPtr(openWorld),
	})
}

// Tool states: every result's text starts with one of the failure states,
// and its structured content carries the state.
const (
	stateDone    = "done"
	stateRefused = "refused" // policy, or the person said no, or outside the project
	stateBusy    = "busy"    // the UI or a worker did not answer in time
	stateProblem = "problem" // bad input, evaluation error, conflict
	stateNone    = "none"    // nothing to act on
)

// failure is the structured content of a failed call.
type failure struct {
	State   string `json:"state"`
	Message string `json:"message"`
}

// fail is a failed tool call the model can read: isError, text starting
// with the state, the state in structured content.
func fail(state, format string, args ...any) *mcp.CallToolResult {
	msg := fmt.Sprintf(format, args...)
	res := mcp.NewToolResultStructured(failure{State: state, Message: msg}, state+": "+msg)
	res.IsError = true
	return res
}

// failErr turns an error from app or the UI into a failed result, its
// state chosen by the sentinel it wraps.
func failErr(err error) *mcp.CallToolResult {
	return fail(stateOf(err), "%v", err)
}

func stateOf(err error) string {
	switch {
	case errors.Is(err, errdefs.ErrOutside), errors.Is(err, errdefs.ErrRefused):
		return stateRefused
	case errors.Is(err, errdefs.ErrBusy):
		return stateBusy
	case errors.Is(err, errdefs.ErrNotFound):
		return stateNone
	default:
		return stateProblem
	}
}

// done is a successful result: text for the model, structured content for
// programs (it should carry State: "done").
func done(structured any, format string, args ...any) *mcp.CallToolResult {
	return mcp.NewToolResultStructured(structured, fmt.Sprintf(format, args...))
}

// doneText is a successful result whose text is its whole answer, with no
// structured content: the tools whose answer is a large text (a file, search
// matches, a pane) send it once. Claude Code and VS Code pass a result's
// structuredContent to the model instead of its text whenever it has one,
// and other clients pass only the text, so a payload in both is sent twice
// and read once; in the text alone every client's model reads it, unescaped.
// Such tools declare no result shape (see textOnly in docs/tools.md).
func doneText(format string, args ...any) *mcp.CallToolResult {
	return mcp.NewToolResultText(fmt.Sprintf(format, args...))
}

// withNote puts note before r's text, when there is one.
func withNote(r *mcp.CallToolResult, note string) *mcp.CallToolResult {
	if note == "" || len(r.Content) == 0 {
		return r
	}
	if tc, ok := r.Content[0].(mcp.TextContent); ok {
		tc.Text = note + "\n" + tc.Text
		r.Content[0] = tc
	}
	return r
}

// withNotes puts notes before r's text, the first at the top.
func withNotes(r *mcp.CallToolResult, notes []string) *mcp.CallToolResult {
	for i := len(notes) - 1; i >= 0; i-- {
		r = withNote(r, notes[i])
	}
	return r
}

// stateResult is the structured content of tools that only say it worked.
type stateResult struct {
	State     string `json:"state"`
	RunID     string `json:"run_id,omitempty"`
	Selection string `json:"selection,omitempty"`
}

// results declares the shape of a tool's structured content from its
// success type T, loosened so that a failed call's structured content
// ({state, message}) fits too: nothing is required and other properties
// are allowed. The shape is kept by resultSchemaOf, for the tests that
// check every result against it and for docs/tools.md, and not sent in
// tools/list: no client shows output schemas to the model, the spec makes
// them optional, and they were more than half of tools/list (25.7 of 49 KB
// in window mode), which every session pays for. Results still carry
// structuredContent, whose shapes docs/tools.md lists. The shape is made
// when it is first asked for, not with the tool: the window makes its
// tools while it starts, and generating every tool's output schema was
// half of that (9 of 18 ms of CPU).
func results[T any]() mcp.ToolOption {
	return func(t *mcp.Tool) {
		resultSchemas.LoadOrStore(t.Name, sync.OnceValue(func() mcp.ToolOutputSchema {
			var shaped mcp.Tool
			mcp.WithOutputSchema[T]()(&shaped)
			out := shaped.OutputSchema
			out.Required = nil
			out.AdditionalProperties = nil
			if out.Properties == nil {
				out.Properties = map[string]any{}
			}
			out.Properties["message"] = map[string]any{"type": "string", "description": "why the call failed"}
			for _, p := range out.Properties {
				dropNullTypes(p) // see tidySchemas
			}
			return out
		}))
	}
}

// resultSchemas holds, for each tool's name, a func that makes its result
// shape (see results), the same in every mode; safe for concurrent use.
var resultSchemas sync.Map

// resultSchemaOf is the shape of name's structured content, once a server
// has made its tools.
func resultSchemaOf(name string) (mcp.ToolOutputSchema, bool) {
	v, ok := resultSchemas.Load(name)
	if !ok {
		return mcp.ToolOutputSchema{}, false
	}
	return v.(func() mcp.ToolOutputSchema)(), true
}

// plural is "1 file" or "3 files": a count and its noun as a person writes it.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
