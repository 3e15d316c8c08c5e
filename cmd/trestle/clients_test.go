package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"trestle/internal/testfix"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Clients nobody here wrote: the official MCP TypeScript SDK (driven by
// test/clients/sdk-client.mjs under node) and the official Go SDK, each
// against a real window (through --mcp-attach) and headless (--mcp); raw
// JSON lines for every protocol version; and the README's debug recipe.

// clientTasks is the .trestle.json of the client tests: a run that streams
// a few lines, one that sleeps (to be cancelled) and a quick one.
const clientTasks = `{"tasks": {
  "slowecho": {"command": ["sh", "-c", "for i in 1 2 3 4 5; do echo line $i; sleep 0.2; done"]},
  "sleepy":   {"command": ["sh", "-c", "echo sleeping; exec sleep 100"]},
  "quick":    {"command": ["echo", "quick"]}
}}
`

// clientProject is testProject with clientTasks.
func clientProject(tb testing.TB) string {
	tb.Helper()
	dir := testProject(tb)
	if err := os.WriteFile(filepath.Join(dir, ".trestle.json"), []byte(clientTasks), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// clientMode is one way a client reaches Trestle: the args after the
// binary and the environment the client process needs.
type clientMode struct {
	name    string // attach or headless
	args    []string
	env     []string
	project string
}

// clientModes starts a window with --agent-policy allow (so runs are not
// held by the permission dialog) and returns both modes on fresh projects,
// trusted (--trust) so that their .trestle.json tasks run.
func clientModes(t *testing.T) []clientMode {
	t.Helper()
	winProject := clientProject(t)
	w := startWindowArgs(t, winProject, "--agent-policy", "allow", "--trust")
	probe := startClient(t, w.env, "ready-probe", "--mcp-attach", winProject)
	waitAnswering(t, probe) // a window just started on a loaded machine answers busy
	probe.Close()
	headProject := clientProject(t)
	return []clientMode{
		{"attach", []string{"--mcp-attach", winProject}, w.env, winProject},
		{"headless", []string{"--mcp", "--trust", headProject}, []string{"TRESTLE_CONFIG_DIR=" + t.TempDir(), "DISPLAY="}, headProject},
	}
}

// clientsDir is test/clients, where sdk-client.mjs and its node_modules live.
func clientsDir(tb testing.TB) string {
	tb.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "test", "clients"))
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

// requireNode returns node's path. Without node the test is skipped,
// except in CI where that is a failure; node without the SDK installed is
// always a failure that says how to install it.
func requireNode(tb testing.TB) string {
	tb.Helper()
	node, err := exec.LookPath("node")
	testfix.Need(tb, "node", err)
	sdkPkg := filepath.Join(clientsDir(tb), "node_modules", "@modelcontextprotocol", "sdk", "package.json")
	if _, err := os.Stat(sdkPkg); err != nil {
		tb.Fatalf("the MCP TypeScript SDK is not installed in test/clients; run make client-deps (npm ci in test/clients): %v", err)
	}
	return node
}

// TestTypeScriptSDKClient runs test/clients/sdk-client.mjs (the official
// MCP TypeScript SDK's Client over StdioClientTransport) against a window
// and headless: tools/list, trestle_read, trestle_files, trestle_run with
// progress before its result, a wait cancelled with an AbortSignal that
// rejects promptly and leaves the run going, a 100 s run called with the
// client's default 60 s timeout (answered "still running" with its run_id
// at 25 s), and 100 pipelined calls, none refused.
func TestTypeScriptSDKClient(t *testing.T) {
	node := requireNode(t)
	bin := trestleBin(t)
	for _, m := range clientModes(t) {
		t.Run(m.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, "sdk-client.mjs", bin, m.name, m.project)
			cmd.Dir = clientsDir(t)
			cmd.Env = append(os.Environ(), m.env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("node sdk-client.mjs %s: %v\nstderr:\n%s\nstdout:\n%s", m.name, err, stderr.String(), stdout.String())
			}
			var summary struct {
				Mode            string `json:"mode"`
				ProtocolVersion string `json:"protocolVersion"`
				Server          string `json:"server"`
				Tools           int    `json:"tools"`
				Progress        int    `json:"progress"`
				CancelMS        int    `json:"cancelMs"`
				StoppedMS       int    `json:"stoppedMs"`
				Pipelined       int    `json:"pipelined"`
				LongRunMS       int    `json:"longRunMs"`
			}
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &summary) != nil {
				t.Fatalf("want one JSON summary line on stdout, got %q", stdout.String())
			}
			if summary.Mode != m.name || summary.Server != "trestle" || summary.Progress < 2 || summary.Pipelined != 100 {
				t.Fatalf("summary: %s", lines[0])
			}
			t.Logf("TypeScript SDK summary: %s", lines[0])
		})
	}
}

// goSDKSession connects the official Go SDK's client to `trestle ARGS`
// over mcp.CommandTransport with the given protocol version ("" is the
// SDK's default).
func goSDKSession(t *testing.T, m clientMode, version string) (*sdk.ClientSession, *syncBuffer) {
	t.Helper()
	stderr := &syncBuffer{}
	cmd := exec.Command(trestleBin(t), m.args...)
	cmd.Env = append(os.Environ(), m.env...)
	cmd.Stderr = stderr
	c := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-test", Version: "1.0"}, nil)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	var opts *sdk.ClientSessionOptions
	if version != "" {
		opts = &sdk.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, opts)
	if err != nil {
		t.Fatalf("Go SDK connect to trestle %v: %v\nstderr: %s", m.args, err, stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	return cs, stderr
}

func goSDKText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func goSDKCall(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) (*sdk.CallToolResult, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("Go SDK %s: %v", name, err)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	return res, sc
}

// TestGoSDKClient drives a window and headless with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk) over CommandTransport, both with
// the SDK's default protocol choice (v1.8.0 tries the stateless 2026-07-28
// server/discover first) and with a 2025-11-25 initialize: tools/list,
// trestle_workbench (window), trestle_read with structuredContent, and a
// refused path as isError.
func TestGoSDKClient(t *testing.T) {
	for _, m := range clientModes(t) {
		for _, version := range []string{"", "2025-11-25"} {
			name := m.name + "/" + version
			if version == "" {
				name = m.name + "/sdk-default"
			}
			t.Run(name, func(t *testing.T) { testGoSDK(t, m, version) })
		}
	}
}

func testGoSDK(t *testing.T, m clientMode, version string) {
	cs, stderr := goSDKSession(t, m, version)
	init := cs.InitializeResult()
	if init.ServerInfo == nil || init.ServerInfo.Name != "trestle" || init.Instructions == "" {
		t.Fatalf("initialize result: %+v", init)
	}
	if version != "" && init.ProtocolVersion != version {
		t.Fatalf("asked for %s, negotiated %s", version, init.ProtocolVersion)
	}
	t.Logf("Go SDK negotiated protocol %s", init.ProtocolVersion)

	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatalf("tools/list: %v\nstderr: %s", err, stderr.String())
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	want := []string{"trestle_files", "trestle_read", "trestle_run"}
	if m.name == "attach" {
		want = append(want, "trestle_workbench")
	} else if slices.Contains(names, "trestle_workbench") {
		t.Fatalf("headless offers trestle_workbench: %v", names)
	}
	for _, w := range want {
		if !slices.Contains(names, w) {
			t.Fatalf("tools/list %v lacks %s", names, w)
		}
	}

	if m.name == "attach" {
		res, sc := goSDKCall(t, cs, "trestle_workbench", nil)
		if res.IsError || sc["root"] != m.project || sc["module"] != "example.com/e2e" {
			t.Fatalf("trestle_workbench: %s %v", goSDKText(res), sc)
		}
		clients, _ := sc["clients"].([]any)
		found := false
		for _, c := range clients {
			if c, ok := c.(map[string]any); ok && c["name"] == "go-sdk-test" {
				found = true
			}
		}
		if !found {
			t.Fatalf("trestle_workbench clients %v lack go-sdk-test", sc["clients"])
		}
	}

	res, sc := goSDKCall(t, cs, "trestle_read", map[string]any{"path": "pkg/calc.go", "start_line": 3, "end_line": 4})
	if text, _ := readText(goSDKText(res)); res.IsError || res.StructuredContent != nil ||
		!strings.HasPrefix(goSDKText(res), "pkg/calc.go lines 3-4 of ") || text != "// Add adds.\nfunc Add(a, b int) int { return a + b }\n" {
		t.Fatalf("trestle_read: %s %v", goSDKText(res), sc)
	}
	if !strings.Contains(goSDKText(res), "func Add") {
		t.Fatalf("trestle_read text content: %q", goSDKText(res))
	}

	res, sc = goSDKCall(t, cs, "trestle_read", map[string]any{"path": "../x"})
	if !res.IsError || !strings.HasPrefix(goSDKText(res), "refused") || sc["state"] != "refused" {
		t.Fatalf("trestle_read ../x: want isError, refused; got %v %q %v", res.IsError, goSDKText(res), sc)
	}

	// Arguments are checked against the schema, in words an agent can act on.
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"trestle_read", map[string]any{"path": "go.mod", "bogus": 1}, `problem: unknown argument "bogus"; allowed: path, start_line, end_line`},
		{"trestle_read", map[string]any{"path": 42}, "problem: path must be a string"},
		{"trestle_stop", map[string]any{"what": "everything"}, `problem: what must be one of "run", "eval", not "everything"`},
	} {
		res, sc = goSDKCall(t, cs, c.tool, c.args)
		if !res.IsError || goSDKText(res) != c.want || sc["state"] != "problem" {
			t.Fatalf("%s %v: got %q %v, want %q", c.tool, c.args, goSDKText(res), sc, c.want)
		}
	}
	// The headless server serves trestle_stop (and trestle_run_status, trestle_tasks) too, with enums.
	for _, tool := range tools.Tools {
		if tool.Name == "trestle_stop" {
			js, _ := json.Marshal(tool.InputSchema)
			if !strings.Contains(string(js), `"enum":["run","eval"]`) {
				t.Fatalf("trestle_stop's what is not an enum: %s", js)
			}
		}
	}
}

// protocolVersions are the MCP versions Trestle must speak, oldest first.
var protocolVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

// rpc sends one request and returns its response, skipping notifications.
func (b *rawBridge) rpc(tb testing.TB, id int, method string, params any) map[string]any {
	tb.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	line, _ := json.Marshal(msg)
	b.send(tb, string(line))
	for {
		m := b.recv(tb)
		if m["method"] != nil && m["id"] == nil {
			continue // a notification
		}
		if got, _ := m["id"].(float64); int(got) != id {
			tb.Fatalf("%s: reply for id %v, want %d: %v", method, m["id"], id, m)
		}
		return m
	}
}

// rawResult is a tool call's result, text and isError.
func rawResult(tb testing.TB, m map[string]any) (map[string]any, string, bool) {
	tb.Helper()
	res, ok := m["result"].(map[string]any)
	if !ok {
		tb.Fatalf("want a result, got %v", m)
	}
	var text strings.Builder
	content, _ := res["content"].([]any)
	for _, c := range content {
		if c, ok := c.(map[string]any); ok && c["type"] == "text" {
			text.WriteString(fmt.Sprint(c["text"]))
		}
	}
	isErr, _ := res["isError"].(bool)
	return res, text.String(), isErr
}

// TestProtocolVersions initializes with each supported protocol version
// through the bridge and headless, with raw JSON lines, and checks the
// negotiated version, tools/list and tools/call; an unknown version gets a
// version Trestle speaks; an unknown tool and a wrong argument type get
// clear answers that name them.
func TestProtocolVersions(t *testing.T) {
	for _, m := range clientModes(t) {
		t.Run(m.name, func(t *testing.T) {
			for _, version := range protocolVersions {
				t.Run(version, func(t *testing.T) {
					b := startRawBridge(t, m.env, m.args...)
					init := b.rpc(t, 1, "initialize", map[string]any{"protocolVersion": version, "capabilities": map[string]any{},
						"clientInfo": map[string]any{"name": "raw-" + version, "version": "1"}})
					res, _ := init["result"].(map[string]any)
					if res == nil || res["protocolVersion"] != version {
						t.Fatalf("initialize %s: %v\nstderr: %s", version, init, b.stderr.String())
					}
					if info, _ := res["serverInfo"].(map[string]any); info["name"] != "trestle" {
						t.Fatalf("serverInfo: %v", res["serverInfo"])
					}
					b.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)

					list := b.rpc(t, 2, "tools/list", nil)
					lr, _ := list["result"].(map[string]any)
					tools, _ := lr["tools"].([]any)
					if len(tools) < 3 {
						t.Fatalf("tools/list: %v", list)
					}

					call := b.rpc(t, 3, "tools/call", map[string]any{"name": "trestle_read", "arguments": map[string]any{"path": "go.mod"}})
					if _, text, isErr := rawResult(t, call); isErr || !strings.HasPrefix(text, "go.mod lines 1-3 of 3, sha256 ") ||
						!strings.Contains(text, ":\nmodule example.com/e2e") {
						t.Fatalf("trestle_read: %v", call)
					}

					unknown := b.rpc(t, 4, "tools/call", map[string]any{"name": "trestle_nope", "arguments": map[string]any{}})
					if e, ok := unknown["error"].(map[string]any); ok {
						if !strings.Contains(fmt.Sprint(e["message"]), "trestle_nope") {
							t.Fatalf("unknown tool: the error does not name it: %v", e)
						}
					} else if _, text, isErr := rawResult(t, unknown); !isErr || !strings.Contains(text, "trestle_nope") {
						t.Fatalf("unknown tool: want an error naming trestle_nope, got %v", unknown)
					}

					wrong := b.rpc(t, 5, "tools/call", map[string]any{"name": "trestle_read", "arguments": map[string]any{"path": 42}})
					if _, text, isErr := rawResult(t, wrong); !isErr || !strings.HasPrefix(text, "problem") || !strings.Contains(text, "path") {
						t.Fatalf("path: 42: want isError with a problem naming path, got %v", wrong)
					}

					b.stdin.Close()
					select {
					case err := <-b.done:
						if err != nil {
							t.Fatalf("exit after stdin closed: %v\nstderr: %s", err, b.stderr.String())
						}
					case <-time.After(30 * time.Second):
						t.Fatalf("still running 30s after stdin closed\nstderr: %s", b.stderr.String())
					}
				})
			}
			t.Run("unknown version", func(t *testing.T) {
				b := startRawBridge(t, m.env, m.args...)
				init := b.rpc(t, 1, "initialize", map[string]any{"protocolVersion": "1999-01-01", "capabilities": map[string]any{},
					"clientInfo": map[string]any{"name": "raw-old", "version": "1"}})
				res, _ := init["result"].(map[string]any)
				if res == nil || !slices.Contains(protocolVersions, fmt.Sprint(res["protocolVersion"])) {
					t.Fatalf("initialize 1999-01-01: want a version Trestle speaks, got %v", init)
				}
			})
		})
	}
}

// recipe is the README's debug recipe, byte for byte: run from a folder
// holding bin/trestle, it serves that folder headless and answers
// initialize and tools/list.
const recipe = `printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"debug","version":"0"}}}' '{"jsonrpc":"2.0","method":"notifications/initialized"}' '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' | bin/trestle --mcp .`

// TestREADMERecipe runs the recipe through sh -c exactly as written and
// checks it prints two JSON-RPC responses: initialize and tools/list.
func TestREADMERecipe(t *testing.T) {
	project := testProject(t)
	os.Mkdir(filepath.Join(project, "bin"), 0o755)
	if err := os.Symlink(trestleBin(t), filepath.Join(project, "bin", "trestle")); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil || !bytes.Contains(readme, []byte(recipe)) {
		t.Errorf("README.md (%v) must carry the debug recipe exactly as tested:\n%s", err, recipe)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", recipe)
	cmd.Dir = project
	cmd.Env = append(os.Environ(), "TRESTLE_CONFIG_DIR="+t.TempDir(), "DISPLAY=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the recipe failed: %v\nstderr: %s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 JSON-RPC lines, got %d:\n%s\nstderr: %s", len(lines), stdout.String(), stderr.String())
	}
	// Trestle answers requests concurrently, so the two replies may come in
	// either order; each is matched by its id.
	type reply struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int    `json:"id"`
		Result  struct {
			ProtocolVersion string `json:"protocolVersion"`
			ServerInfo      struct {
				Name string `json:"name"`
			} `json:"serverInfo"`
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"result"`
	}
	byID := map[int]reply{}
	for _, line := range lines {
		var r reply
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.JSONRPC != "2.0" {
			t.Fatalf("not a JSON-RPC response: %v %s", err, line)
		}
		byID[r.ID] = r
	}
	init, list := byID[1], byID[2]
	if init.Result.ProtocolVersion != "2025-11-25" || init.Result.ServerInfo.Name != "trestle" {
		t.Fatalf("initialize response: %+v\n%s", init, stdout.String())
	}
	if len(list.Result.Tools) == 0 {
		t.Fatalf("tools/list response: %+v\n%s", list, stdout.String())
	}
	var names []string
	for _, tool := range list.Result.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Contains(names, "trestle_read") || !slices.Contains(names, "trestle_files") {
		t.Fatalf("tools/list: %v", names)
	}
}
