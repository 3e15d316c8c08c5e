//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// Clean process life through the real binary: --mcp and --mcp-attach end
// quietly on a signal while their client still holds stdin open (as Claude
// Code stops its servers), and every attach that fails answers the
// client's first request with why and what to do.

// stdioChild is the binary run with piped stdio, as an MCP client runs it.
type stdioChild struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *syncBuffer
	done   chan struct{}
}

func startStdioChild(t *testing.T, env []string, args ...string) *stdioChild {
	t.Helper()
	c := &stdioChild{stderr: &syncBuffer{}, done: make(chan struct{})}
	c.cmd = exec.Command(trestleBin(t), args...)
	c.cmd.Env = append(os.Environ(), env...)
	c.cmd.Stderr = c.stderr
	var err error
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.stdout = bufio.NewReader(out)
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.cmd.Wait(); close(c.done) }()
	t.Cleanup(func() {
		c.cmd.Process.Kill()
		<-c.done
	})
	return c
}

func (c *stdioChild) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		t.Fatalf("write stdin: %v (stderr: %s)", err, c.stderr.String())
	}
}

// answer reads stdout up to the response with id, skipping notifications.
func (c *stdioChild) answer(t *testing.T, id string) map[string]any {
	t.Helper()
	for {
		line, err := c.stdout.ReadBytes('\n')
		if err != nil {
			t.Fatalf("read stdout waiting for %s: %v (stderr: %s)", id, err, c.stderr.String())
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("stdout line is not JSON: %q", line)
		}
		if m["id"] == id {
			return m
		}
	}
}

// exitAfter waits up to bound for the child to exit and returns its code.
func (c *stdioChild) exitAfter(t *testing.T, bound time.Duration, what string) int {
	t.Helper()
	select {
	case <-c.done:
	case <-time.After(bound):
		t.Fatalf("%s: still running after %v with stdin open (stderr: %s)", what, bound, c.stderr.String())
	}
	return c.cmd.ProcessState.ExitCode()
}

// descendants lists the processes under pid, children first.
func descendants(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, s := range strings.Fields(string(b)) {
			if kid, err := strconv.Atoi(s); err == nil {
				out = append(out, kid)
				out = append(out, descendants(kid)...)
			}
		}
	}
	return out
}

// gone reports whether pid no longer runs (a zombie counts as gone).
func gone(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// the state is the field after the parenthesized command name
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] == 'Z'
}

const lifeInit = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"life","version":"1"}}}`

// TestHeadlessExitsOnSignal sends SIGTERM, then (on a second server)
// SIGINT, to `trestle --mcp` while its stdin is open and gopls runs under
// it: it exits 0 within the bound, and gopls is gone with it. It ignored
// both signals until stdin closed, and Claude Code had to SIGKILL it.
func TestHeadlessExitsOnSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			c := startStdioChild(t, []string{"TRESTLE_CONFIG_DIR=" + t.TempDir(), "DISPLAY="}, "--mcp", testProject(t))
			c.send(t, lifeInit)
			c.answer(t, "init")
			c.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			c.send(t, `{"jsonrpc":"2.0","id":"sym","method":"tools/call","params":{"name":"trestle_symbols","arguments":{"query":"Add"}}}`)
			c.answer(t, "sym") // gopls has started
			kids := descendants(c.cmd.Process.Pid)
			t.Logf("processes under the server: %v", kids)
			if err := c.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if code := c.exitAfter(t, 30*time.Second, sig.String()); code != 0 {
				t.Fatalf("exit code %d after %v, want 0 (stderr: %s)", code, sig, c.stderr.String())
			}
			for _, kid := range kids {
				testfix.Wait(t, 30*time.Second, "process "+strconv.Itoa(kid)+" under the server ends with it", func() bool { return gone(kid) })
			}
		})
	}
}

// TestAttachExitsQuietlyOnSignal sends SIGTERM to a bridge attached to a
// live window: it exits 0 and says nothing (it said "the Trestle window
// … went away" and exited 1), and the window still serves.
func TestAttachExitsQuietlyOnSignal(t *testing.T) {
	config := t.TempDir()
	w := startFakeWindow(t, config, testProject(t), os.Getpid(), time.Now())
	c := startStdioChild(t, []string{"TRESTLE_CONFIG_DIR=" + config, "DISPLAY="}, "--mcp-attach", w.entry.Dir)
	c.send(t, lifeInit)
	c.answer(t, "init")
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := c.exitAfter(t, 30*time.Second, "SIGTERM"); code != 0 || c.stderr.String() != "" {
		t.Fatalf("exit code %d, stderr %q; want 0 and nothing", code, c.stderr.String())
	}
	if _, _, code := runAttachChild(t, config, w.entry.Dir, attachInit); code != 0 {
		t.Fatalf("the window no longer serves: a new bridge exited %d", code)
	}
}

// TestAttachFailuresAnswerTheFirstRequest runs the bridge where it cannot
// attach: no window at all, and a project folder that does not exist. Each answers the client's initialize (after a
// notification it skips) with a JSON-RPC error under its id that says why
// and what to do, says the same on stderr, and exits 1. The connection
// used to close with no answer: clients showed "Connection closed".
func TestAttachFailuresAnswerTheFirstRequest(t *testing.T) {
	emptyConfig := t.TempDir()
	config := t.TempDir()
	w := startFakeWindow(t, config, testProject(t), os.Getpid(), time.Now())
	missing := filepath.Join(t.TempDir(), "no-such-project")
	tests := []struct {
		name, config, dir string
		want              []string // in the message: the reason, then the fix
	}{
		{"no window", emptyConfig, w.entry.Dir, []string{"no Trestle window is open for", "start one with: trestle DIR", "trestle --mcp DIR"}},
		{"missing folder", config, missing, []string{missing, "does not exist", "trestle --mcp-attach DIR"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runAttachChild(t, tt.config, tt.dir,
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}`+"\n"+attachInit)
			var m struct {
				ID    any `json:"id"`
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &m) != nil || m.ID != "nine" || m.Error.Code == 0 {
				t.Fatalf("stdout %q (stderr %q), want one error answering id \"nine\"", stdout, stderr)
			}
			for _, want := range tt.want {
				if !strings.Contains(m.Error.Message, want) || !strings.Contains(stderr, want) {
					t.Fatalf("message %q / stderr %q lacks %q", m.Error.Message, stderr, want)
				}
			}
			if code != 1 {
				t.Fatalf("exit code %d, want 1", code)
			}
		})
	}
}
