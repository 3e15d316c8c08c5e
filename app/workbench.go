package app

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
