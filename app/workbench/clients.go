package workbench

import "time"

// Client is one attached MCP client.
type Client struct {
	Session string `json:"session"`
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// MaxCallDetail bounds a ToolCall's Arguments and Result: enough to read
// most calls whole, little enough that the Agents pane's 500 remembered
// calls stay within a few megabytes.
const MaxCallDetail = 16 << 10

// ToolCall is one agent tool call, as the Agents pane lists it.
type ToolCall struct {
	ID      uint64    `json:"id"` // the same for a call's start and end
	Time    time.Time `json:"time"`
	Client  string    `json:"client"`
	Tool    string    `json:"tool"`
	Summary string    `json:"summary"` // the arguments, shortened
	// Arguments are the whole arguments as indented JSON and Result the
	// text the agent was answered, each cut to MaxCallDetail bytes: what
	// the person reads when they open a call in the Agents pane.
	Arguments string        `json:"arguments,omitempty"`
	Result    string        `json:"result,omitempty"`
	State     string        `json:"state"` // running, then done, refused, busy, problem, none, or error
	Duration  time.Duration `json:"duration"`
}
