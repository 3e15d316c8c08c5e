package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// clients are the MCP clients mcp-config knows, in the order it prints them.
var clients = []string{"claude", "cursor", "codex"}

// runConfig prints the configuration that makes each MCP client attach to
// the window through this binary, and the headless alternative
// (mcp-config).
func runConfig(stdout, stderr io.Writer, client string) int {
	exe, err := commandPath()
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

// claudeDeny is the Claude Code settings that turn off its own file-writing
// tools, so that change sets are the only way it writes.
const claudeDeny = `{"permissions":{"deny":["Edit","Write","MultiEdit","NotebookEdit"]}}`

// clientConfig is one client's configuration: attach to the window, or
// (commented) serve headless for a project folder, and, marked optional,
// the client's own settings that leave Trestle's change sets as the only
// way the agent writes the person's files.
func clientConfig(client, exe string) string {
	attach := serversJSON(exe, "--mcp-attach")
	headless := serversJSON(exe, "--mcp", "/path/to/project")
	switch client {
	case "claude":
		return fmt.Sprintf("# Claude Code: attach to the open window (run in your project folder)\n"+
			"claude mcp add trestle -- %s --mcp-attach\n"+
			"# or in the project's .mcp.json\n%s\n"+
			"# headless, without a window:\n# claude mcp add trestle -- %s --mcp /path/to/project\n"+
			"# Optional: make change sets the only way Claude Code edits files. Its own Edit, Write,\n"+
			"# MultiEdit and NotebookEdit tools are denied by this .claude/settings.json in the project\n"+
			"# (merge it into the file if you have one):\n%s\n"+
			"# Its Bash tool can still write files; add \"Bash\" to the list to deny the shell too\n"+
			"# (trestle_run and trestle_eval still run tasks and Go in plain view).\n\n",
			strconv.Quote(exe), attach, strconv.Quote(exe), claudeDeny)
	case "cursor":
		return fmt.Sprintf("# Cursor: .cursor/mcp.json in the project (or ~/.cursor/mcp.json)\n%s\n"+
			"# headless, without a window:\n%s\n"+
			"# Optional: Cursor has no settings file that turns off its own edit tools. Where your version\n"+
			"# offers custom modes, make one with its Edit and Delete tools switched off and MCP on, and keep\n"+
			"# terminal commands on \"ask\"; otherwise review every edit it makes before keeping it.\n\n",
			attach, headless)
	default:
		return fmt.Sprintf("# Codex: ~/.codex/config.toml\n[mcp_servers.trestle]\ncommand = %s\nargs = [\"--mcp-attach\"]\n"+
			"# headless, without a window:\n# args = [\"--mcp\", \"/path/to/project\"]\n"+
			"# Optional: make change sets the only way Codex edits files. At the top of config.toml (or\n"+
			"# in the project's .codex/config.toml), before any [table]:\n"+
			"# sandbox_mode = \"read-only\"      # its own edits and commands cannot write the workspace\n"+
			"# approval_policy = \"on-request\"  # it asks before going outside the sandbox: say no to writes\n\n",
			strconv.Quote(exe))
	}
}

func serversJSON(exe string, args ...string) string {
	js, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{
		"trestle": map[string]any{"command": exe, "args": args},
	}}, "", "  ")
	return string(js)
}
