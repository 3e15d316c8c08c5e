package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// clients are the MCP clients mcp-config knows, in the order it prints them.
var clients = []string{"claude", "cursor", "codex"}

// runConfig prints the configuration that makes each MCP client attach to
// the window through this binary, and the headless alternative
// (mcp-config).
func runConfig(stdout, stderr io.Writer, client string) int {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		fmt.Fprintf(stderr, "trestle: find this binary's path: %v\n", err)
		return 1
	}
	for _, c := range clients {
		if client == "" || client == "all" || client == c {
			io.WriteString(stdout, clientConfig(c, exe))
		}
	}
	return 0
}

// clientConfig is one client's configuration: attach to the window, or
// (commented) serve headless for a project folder.
func clientConfig(client, exe string) string {
	attach := serversJSON(exe, "--mcp-attach")
	headless := serversJSON(exe, "--mcp", "/path/to/project")
	switch client {
	case "claude":
		return fmt.Sprintf("# Claude Code: attach to the open window (run in your project folder)\n"+
			"claude mcp add trestle -- %s --mcp-attach\n"+
			"# or in the project's .mcp.json\n%s\n"+
			"# headless, without a window:\n# claude mcp add trestle -- %s --mcp /path/to/project\n\n",
			strconv.Quote(exe), attach, strconv.Quote(exe))
	case "cursor":
		return fmt.Sprintf("# Cursor: .cursor/mcp.json in the project (or ~/.cursor/mcp.json)\n%s\n"+
			"# headless, without a window:\n%s\n\n", attach, headless)
	default:
		return fmt.Sprintf("# Codex: ~/.codex/config.toml\n[mcp_servers.trestle]\ncommand = %s\nargs = [\"--mcp-attach\"]\n"+
			"# headless, without a window:\n# args = [\"--mcp\", \"/path/to/project\"]\n\n", strconv.Quote(exe))
	}
}

func serversJSON(exe string, args ...string) string {
	js, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{
		"trestle": map[string]any{"command": exe, "args": args},
	}}, "", "  ")
	return string(js)
}
