package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// runConfig prints the configuration that makes each MCP client attach to
// the window through this binary (mcp-config).
func runConfig(stdout, stderr io.Writer, client string) int {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		fmt.Fprintf(stderr, "trestle: find this binary's path: %v\n", err)
		return 1
	}
	for _, c := range []string{"claude", "cursor", "codex"} {
		if client == "" || client == c {
			io.WriteString(stdout, clientConfig(c, exe))
		}
	}
	return 0
}

func clientConfig(client, exe string) string {
	servers := map[string]any{"mcpServers": map[string]any{
		"trestle": map[string]any{"command": exe, "args": []string{"--mcp-attach"}},
	}}
	js, _ := json.MarshalIndent(servers, "", "  ")
	switch client {
	case "claude":
		return fmt.Sprintf("# Claude Code: run this in your project folder\nclaude mcp add trestle -- %s --mcp-attach\n"+
			"# or put this in the project's .mcp.json\n%s\n\n", strconv.Quote(exe), js)
	case "cursor":
		return fmt.Sprintf("# Cursor: .cursor/mcp.json in the project (or ~/.cursor/mcp.json)\n%s\n\n", js)
	default:
		return fmt.Sprintf("# Codex: ~/.codex/config.toml\n[mcp_servers.trestle]\ncommand = %s\nargs = [\"--mcp-attach\"]\n\n",
			strconv.Quote(exe))
	}
}
