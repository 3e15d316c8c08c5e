package mcpbridge

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/workbench"
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
		call := workbench.ToolCall{ID: s.calls.Add(1), Time: time.Now(), Client: clientName(ctx), Tool: name,
			Summary: summarize(req.Params.Arguments), Arguments: indented(req.Params.Arguments), State: "running"}
		s.opts.OnCall(call)
		res, err := inner(ctx, req)
		call.State, call.Duration = stateOfResult(res, err), time.Since(call.Time)
		call.Result = resultText(res, err)
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
	s := marshalPlain(args, "")
	if utf8.RuneCountInString(s) <= summaryLen {
		return s
	}
	r := []rune(s)
	return string(r[:summaryLen-1]) + "…"
}

// indented renders arguments as indented JSON cut to workbench.MaxCallDetail.
func indented(args any) string { return cut(marshalPlain(args, "  "), workbench.MaxCallDetail) }

// marshalPlain is JSON as a person reads it: <, > and & as themselves, not
// \u003c (json.Marshal escapes them for HTML); "" for no arguments.
func marshalPlain(v any, indent string) string {
	if v == nil {
		return ""
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return ""
	}
	s := strings.TrimSuffix(b.String(), "\n")
	if s == "{}" || s == "null" {
		return ""
	}
	return s
}

// resultText is the text content of a result, or the error, cut to
// workbench.MaxCallDetail.
func resultText(res *mcp.CallToolResult, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	if res == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range res.Content {
		switch t := c.(type) {
		case mcp.TextContent:
			b.WriteString(t.Text)
		case *mcp.TextContent:
			b.WriteString(t.Text)
		}
		if b.Len() > workbench.MaxCallDetail {
			break
		}
	}
	return cut(b.String(), workbench.MaxCallDetail)
}

// cut shortens s to at most n bytes on a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "\n… (cut at " + strconv.Itoa(n>>10) + " KiB)"
}
