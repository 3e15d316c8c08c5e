package mcpbridge

import (
	"context"
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app"
)

// summaryLen is how much of a call's arguments the Agents pane shows.
const summaryLen = 80

// recorded wraps a tool's handler so that every call is reported to
// Options.OnCall (the window's Agents pane) as it starts, with state
// "running", and again with the same ID once it has an answer.
func (s *Server) recorded(t server.ServerTool) server.ServerTool {
	if s.opts.OnCall == nil {
		return t
	}
	inner := t.Handler
	name := t.Tool.Name
	t.Handler = func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		call := app.ToolCall{ID: s.calls.Add(1), Time: time.Now(), Client: clientName(ctx), Tool: name,
			Summary: summarize(req.Params.Arguments), State: "running"}
		s.opts.OnCall(call)
		res, err := inner(ctx, req)
		call.State, call.Duration = stateOfResult(res, err), time.Since(call.Time)
		s.opts.OnCall(call)
		return res, err
	}
	return t
}

// stateOfResult reads the state word a handler put in its result.
func stateOfResult(res *mcp.CallToolResult, err error) string {
	if err != nil || res == nil {
		return "error"
	}
	if f, ok := res.StructuredContent.(failure); ok {
		return f.State
	}
	if res.IsError {
		return stateProblem
	}
	return stateDone
}

// summarize renders arguments as compact JSON cut to summaryLen runes.
func summarize(args any) string {
	if args == nil {
		return ""
	}
	b, err := json.Marshal(args)
	if err != nil || string(b) == "{}" || string(b) == "null" {
		return ""
	}
	s := string(b)
	if utf8.RuneCountInString(s) <= summaryLen {
		return s
	}
	r := []rune(s)
	return string(r[:summaryLen-1]) + "…"
}
