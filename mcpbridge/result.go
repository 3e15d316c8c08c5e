package mcpbridge

import (
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"trestle/app/errdefs"
)

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

// stateResult is the structured content of tools that only say it worked.
type stateResult struct {
	State     string `json:"state"`
	RunID     string `json:"run_id,omitempty"`
	Selection string `json:"selection,omitempty"`
}

// results sets a tool's output schema from its success type T, loosened so
// that a failed call's structured content ({state, message}) validates too:
// nothing is required and other properties are allowed. Clients such as the
// TypeScript SDK check structured content against the schema even on errors.
func results[T any]() mcp.ToolOption {
	set := mcp.WithOutputSchema[T]()
	return func(t *mcp.Tool) {
		set(t)
		t.OutputSchema.Required = nil
		t.OutputSchema.AdditionalProperties = nil
		if t.OutputSchema.Properties == nil {
			t.OutputSchema.Properties = map[string]any{}
		}
		t.OutputSchema.Properties["message"] = map[string]any{"type": "string", "description": "why the call failed"}
	}
}
