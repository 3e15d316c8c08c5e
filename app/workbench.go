package app

import "time"

// Tab is one open editor as the window shows it.
type Tab struct {
	Path   string `json:"path"` // project-relative, forward slashes
	Active bool   `json:"active"`
	Dirty  bool   `json:"dirty"`
}

// Client is one attached MCP client.
type Client struct {
	Session string `json:"session"`
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// ToolCall is one agent tool call, as the Agents pane lists it.
type ToolCall struct {
	ID       uint64        `json:"id"` // the same for a call's start and end
	Time     time.Time     `json:"time"`
	Client   string        `json:"client"`
	Tool     string        `json:"tool"`
	Summary  string        `json:"summary"` // the arguments, shortened
	State    string        `json:"state"`   // running, then done, refused, busy, problem, none, or error
	Duration time.Duration `json:"duration"`
}
