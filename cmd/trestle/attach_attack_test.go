//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"trestle/app/agent"
	"trestle/app/project"
	"trestle/internal/testfix"
	"trestle/mcpbridge"
	"trestle/registry"
)

// Attacks on --mcp-attach and the window's listener through the real
// binary: a full window, a registered port held by a foreign program, two
// windows on one project, and a listener that dies. The windows here are
// in-process listeners (the window's listener code, without a display)
// with real registry files in a temp config dir.

// fakeWindow is an in-process window listener on project dir.
type fakeWindow struct {
	l     *mcpbridge.Listener
	entry registry.Entry
}

// startFakeWindow serves dir on loopback and registers it under pid.
func startFakeWindow(t *testing.T, config, dir string, pid int, started time.Time) fakeWindow {
	t.Helper()
	proj, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := mcpbridge.NewServer(agent.New(agent.Config{Project: proj}), mcpbridge.Options{Version: "test", Logger: log.New(io.Discard, "", 0)})
	token, err := mcpbridge.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	l, err := srv.Listen(token)
	if err != nil {
		t.Fatal(err)
	}
	testfix.Serve(t, l.Serve)
	e := registry.Entry{PID: pid, Port: l.Port(), Dir: proj.Root, Token: token, Started: started, Version: "test"}
	if err := registry.New(filepath.Join(config, "mcp")).Write(e); err != nil {
		t.Fatal(err)
	}
	return fakeWindow{l, e}
}

// liveForeignPID is a live process that is not a Trestle window.
func liveForeignPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("sleep", "120")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd.Process.Pid
}

// attachEnv is the environment of a --mcp-attach child using config.
func attachEnv(config string) []string {
	return append(os.Environ(), "TRESTLE_CONFIG_DIR="+config, "DISPLAY=", "LANG=en_US.UTF-8", "LC_ALL=", "LC_MESSAGES=")
}

// runAttach runs `trestle --mcp-attach dir` with stdin and returns stdout,
// stderr and the exit code.
func runAttachChild(t *testing.T, config, dir, stdin string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, trestleBin(t), "--mcp-attach", dir)
	cmd.Env = attachEnv(config)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

const attachInit = `{"jsonrpc":"2.0","id":"nine","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"ninth","version":"1"}}}` + "\n"

// holdPlace attaches one raw client to w and initializes it.
func holdPlace(t *testing.T, w fakeWindow, name string) {
	t.Helper()
	c, err := net.Dial("tcp", w.l.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if wel, err := registry.Greet(c, w.entry.Token, false, 10*time.Second); err != nil || wel.State != registry.WelcomeReady {
		t.Fatalf("greet: %+v %v", wel, err)
	}
	fmt.Fprintf(c, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":%q,"version":"1"}}}`+"\n", name)
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := bufio.NewReader(c).ReadBytes('\n'); err != nil {
		t.Fatal(err)
	}
}

// TestAttachToAFullWindowSaysWhy attaches a 9th client through the real
// bridge to a window holding 8: the client's initialize is answered with
// the refusal under its own id (it was id null, which SDK clients reject
// as a broken server), the bridge says on stderr how many are attached to
// which window, and exits 1 (it said the window "went away").
func TestAttachToAFullWindowSaysWhy(t *testing.T) {
	config := t.TempDir()
	w := startFakeWindow(t, config, testProject(t), os.Getpid(), time.Now())
	for i := range mcpbridge.MaxClients {
		holdPlace(t, w, fmt.Sprintf("agent-%d", i))
	}
	stdout, stderr, code := runAttachChild(t, config, w.entry.Dir, attachInit)
	var m struct {
		ID    any `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &m) != nil || m.ID != "nine" || !strings.Contains(m.Error.Message, "8 agents are attached") {
		t.Fatalf("stdout %q, want the refusal under id \"nine\"", stdout)
	}
	want := fmt.Sprintf("refused: 8 agents attached to the window for %s; detach one", w.entry.Dir)
	if code != 1 || !strings.Contains(stderr, want) || strings.Contains(stderr, "went away") {
		t.Fatalf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}

	node, err := exec.LookPath("node")
	sdk := filepath.Join(clientsDir(t), "node_modules", "@modelcontextprotocol", "sdk", "package.json")
	if _, serr := os.Stat(sdk); err != nil || serr != nil {
		t.Logf("the TypeScript SDK part is skipped: node or test/clients/node_modules is missing")
		return
	}
	t.Run("TypeScript SDK", func(t *testing.T) {
		// The official SDK's Client over StdioClientTransport: connect must
		// reject with the window's refusal, not a schema or timeout error.
		script := `
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const [bin, dir] = process.argv.slice(1);
const client = new Client({ name: "ninth-ts", version: "1" });
const transport = new StdioClientTransport({ command: bin, args: ["--mcp-attach", dir], env: { ...process.env }, stderr: "pipe" });
try {
  await client.connect(transport, { timeout: 30000 });
  console.log(JSON.stringify({ connected: true }));
} catch (e) {
  console.log(JSON.stringify({ connected: false, code: e.code ?? null, message: String(e.message) }));
}
await client.close().catch(() => {});
`
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, node, "--input-type=module", "-e", script, trestleBin(t), w.entry.Dir)
		cmd.Dir = clientsDir(t)
		cmd.Env = attachEnv(config)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node: %v\n%s", err, out)
		}
		var res struct {
			Connected bool   `json:"connected"`
			Code      *int   `json:"code"`
			Message   string `json:"message"`
		}
		if json.Unmarshal(bytes.TrimSpace(out), &res) != nil || res.Connected || res.Code == nil || *res.Code != -32011 ||
			!strings.Contains(res.Message, "8 agents are attached") {
			t.Fatalf("TypeScript SDK: %s", out)
		}
		t.Logf("TypeScript SDK: %s", bytes.TrimSpace(out))
	})
}

// TestAttachNeverTalksToAForeignListener registers a window whose pid is
// alive but is another program, holding the registered port and saying
// nothing (silence used to count as a window that accepted the token, and
// the agent's messages went to that program): the entry is reaped, the
// bridge exits 1, and neither the token nor any agent message reached it.
func TestAttachNeverTalksToAForeignListener(t *testing.T) {
	config := t.TempDir()
	dir := testProject(t)
	var mu sync.Mutex
	var got bytes.Buffer
	port := testfix.Loopback(t, func(c net.Conn) {
		c.SetDeadline(time.Now().Add(30 * time.Second))
		b := make([]byte, 4096)
		for {
			n, err := c.Read(b)
			mu.Lock()
			got.Write(b[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	})
	token := strings.Repeat("7e", 32)
	reg := registry.New(filepath.Join(config, "mcp"))
	e := registry.Entry{PID: liveForeignPID(t), Port: port, Dir: dir, Token: token, Started: time.Now(), Version: "test"}
	if err := reg.Write(e); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runAttachChild(t, config, dir, attachInit)
	if code != 1 || !strings.Contains(stderr, "no Trestle window is open for") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(config, "mcp", strconv.Itoa(e.PID)+".json")); !os.IsNotExist(err) {
		t.Fatalf("the foreign pid's entry was kept: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if s := got.String(); strings.Contains(s, token) || strings.Contains(s, "initialize") {
		t.Fatalf("the foreign listener received %q", s)
	}
}

// TestAttachNamesTheWindowItPicked opens two windows on one project: the
// bridge attaches to the one started last and says so on stderr, naming
// the other (it picked one silently).
func TestAttachNamesTheWindowItPicked(t *testing.T) {
	config := t.TempDir()
	dir := testProject(t)
	older := startFakeWindow(t, config, dir, os.Getpid(), time.Now().Add(-time.Hour))
	newer := startFakeWindow(t, config, dir, liveForeignPID(t), time.Now())
	stdout, stderr, code := runAttachChild(t, config, dir, attachInit)
	if code != 0 || !strings.Contains(stdout, `"id":"nine","result"`) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	want := fmt.Sprintf("2 Trestle windows are open on %s; attaching to the one started last, pid %d", dir, newer.entry.PID)
	if !strings.Contains(stderr, want) || !strings.Contains(stderr, fmt.Sprintf("also open: pid %d", older.entry.PID)) {
		t.Fatalf("stderr %q, want %q and the other window", stderr, want)
	}
}
