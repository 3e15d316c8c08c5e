package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"trestle/internal/testfix"
	"trestle/registry"
)

// The end-to-end harness: the real binary, a real X server (Xvfb), real
// registry files in a temp config dir, and mcp-go's client talking through
// the real --mcp-attach bridge.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// testHooksTag builds the test-only tools (trestle_debug_stall,
// trestle_debug_apply) into the binary the tests run; the shipped binary
// lacks them (scripts/check-package.sh checks it).
const testHooksTag = "trestle_testhooks"

// trestleBin builds the binaries once per test run, as make build lays
// them out: the workbench, with the test hooks, as trestle-workbench, and
// the front beside it as trestle, whose path it returns. Every test runs
// the front, as a person does: it runs `changes` itself and hands the
// rest to the workbench in the same process.
func trestleBin(tb testing.TB) string {
	tb.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "trestle-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "trestle")
		out, err := exec.Command("go", "build", "-tags", testHooksTag, "-o", filepath.Join(dir, workbenchName), ".").CombinedOutput()
		if err == nil {
			out, err = exec.Command("go", "build", "-o", binPath, "./front").CombinedOutput()
		}
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return binPath
}

// startXvfb starts a private X server and returns its DISPLAY. Without
// Xvfb the test is skipped, except in CI where that is a failure.
func startXvfb(tb testing.TB) string {
	tb.Helper()
	_, err := exec.LookPath("Xvfb")
	testfix.Need(tb, "Xvfb", err)
	for n := 90 + os.Getpid()%50; n < 400; n++ {
		if displayInUse(n) {
			continue
		}
		cmd := exec.Command("Xvfb", fmt.Sprintf(":%d", n), "-screen", "0", "1280x800x24", "-nolisten", "tcp")
		if err := cmd.Start(); err != nil {
			tb.Fatal(err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		tb.Cleanup(func() {
			// SIGTERM lets Xvfb remove its lock and socket; a SIGKILLed one
			// left them, and 300 runs' worth filled every display number.
			cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-done
			}
		})
		sock := fmt.Sprintf("/tmp/.X11-unix/X%d", n)
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			select {
			case <-done:
				goto next // lost a race for this display; try the next one
			default:
			}
			if _, err := os.Stat(sock); err == nil {
				return fmt.Sprintf(":%d", n)
			}
		}
		tb.Fatalf("Xvfb :%d did not start", n)
	next:
	}
	tb.Fatal("no free X display")
	return ""
}

// displayInUse reports whether X display n is taken: its lock names a live
// process. The lock and socket of a dead server are removed, as an X
// server would.
func displayInUse(n int) bool {
	lock := fmt.Sprintf("/tmp/.X%d-lock", n)
	sock := fmt.Sprintf("/tmp/.X11-unix/X%d", n)
	data, err := os.ReadFile(lock)
	if err != nil {
		_, sockErr := os.Stat(sock)
		return sockErr == nil // a socket without a lock: leave it alone
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err == nil && pid > 0 && syscall.Kill(pid, 0) == nil {
		return true
	}
	os.Remove(lock)
	os.Remove(sock)
	return false
}

// testProject writes a small Go module.
func testProject(tb testing.TB) string {
	tb.Helper()
	return testfix.Project(tb, map[string]string{
		"go.mod":      "module example.com/e2e\n\ngo 1.22\n",
		"main.go":     "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello from e2e\")\n}\n",
		"pkg/calc.go": "package pkg\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n",
	})
}

// window is a running Trestle window under Xvfb.
type window struct {
	cmd     *exec.Cmd
	env     []string // TRESTLE_CONFIG_DIR and DISPLAY, for the bridges
	config  string
	display string
	entry   registry.Entry
	stderr  *syncBuffer
	exited  chan struct{}
	// answered is set once the window has answered a UI tool (attach).
	answered bool
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startWindow runs `trestle DIR` under a fresh Xvfb with a temp config
// dir and waits for its registry entry.
func startWindow(tb testing.TB, project string) *window {
	tb.Helper()
	return startWindowArgs(tb, project)
}

// startWindowArgs is startWindow with extra flags before DIR (e.g.
// --agent-policy allow).
func startWindowArgs(tb testing.TB, project string, args ...string) *window {
	tb.Helper()
	return launchWindow(tb, &window{config: tb.TempDir(), display: startXvfb(tb)}, project, args...)
}

// startWindowBeside runs `trestle DIR` as a second process on other's
// display, with its config dir (one registry, one store), as a person
// opens a second project.
func startWindowBeside(tb testing.TB, other *window, project string) *window {
	tb.Helper()
	return launchWindow(tb, &window{config: other.config, display: other.display}, project)
}

// launchWindow runs `trestle args DIR` on w's display with w's config dir
// and waits for its registry entry.
func launchWindow(tb testing.TB, w *window, project string, args ...string) *window {
	tb.Helper()
	w.stderr, w.exited = &syncBuffer{}, make(chan struct{})
	w.env = []string{"TRESTLE_CONFIG_DIR=" + w.config, "DISPLAY=" + w.display}
	w.cmd = exec.Command(trestleBin(tb), append(args, project)...)
	// LC_CTYPE: a UTF-8 locale for the window's character set, as a
	// desktop session has (a CI's env -i has none): in the C locale GLFW
	// sets WM_NAME without the title's "—", and xdotool, which reads
	// WM_NAME, never found "Trestle — 002". The language (LANG,
	// LC_MESSAGES, LC_ALL) stays the caller's.
	w.cmd.Env = append(os.Environ(), append(w.env, "TRESTLE_TEST_HOOKS=1", "LC_CTYPE=C.UTF-8")...)
	w.cmd.Stderr = w.stderr
	w.cmd.Stdout = w.stderr
	if err := w.cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go func() { w.cmd.Wait(); close(w.exited) }()
	tb.Cleanup(func() {
		if tb.Failed() { // what the screen and the window said when the test failed
			tb.Logf("screenshot at the failure: %s\nthe window's output:\n%s",
				w.screenshot(tb, "failed-"+strings.ReplaceAll(tb.Name(), "/", "-")), w.stderr.String())
		}
		w.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-w.exited:
		case <-time.After(5 * time.Second):
			w.cmd.Process.Kill()
			<-w.exited
		}
		if strings.Contains(w.stderr.String(), "Error in Fyne call thread") {
			tb.Errorf("the window touched Fyne off the main goroutine:\n%s", w.stderr.String())
		}
	})
	reg := registry.New(filepath.Join(w.config, "mcp"))
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		select {
		case <-w.exited:
			tb.Fatalf("the window exited early:\n%s", w.stderr.String())
		default:
		}
		entries, _ := reg.Reap()
		for _, e := range entries {
			if e.PID == w.cmd.Process.Pid {
				w.entry = e
				return w
			}
		}
	}
	tb.Fatalf("no registry entry after 60s:\n%s", w.stderr.String())
	return nil
}

// attach starts `trestle --mcp-attach DIR` under mcp-go's stdio client and
// initializes with protocol 2025-06-18 (an empty version would make the
// client pick the 2026 stateless protocol).
// The first client of a window waits until the window answers: a window
// that has just started on a loaded machine answers its first calls busy.
func (w *window) attach(tb testing.TB, dir, name string) *client.Client {
	tb.Helper()
	args := []string{"--mcp-attach"}
	if dir != "" {
		args = append(args, dir)
	}
	c := startClient(tb, w.env, name, args...)
	if !w.answered {
		waitAnswering(tb, c)
		w.answered = true
	}
	return c
}

// waitAnswering waits until the window behind c answers a UI tool other
// than busy.
func waitAnswering(tb testing.TB, c *client.Client) {
	tb.Helper()
	testfix.WaitFor(tb, time.Minute, "the window answering trestle_workbench", func() (string, bool) {
		res, sc := call(tb, c, "trestle_workbench", nil)
		return resultText(res), sc["state"] != "busy"
	}, toolPoll)
}

func startClient(tb testing.TB, env []string, name string, args ...string) *client.Client {
	tb.Helper()
	stderr := &syncBuffer{}
	c, err := client.NewStdioMCPClientWithOptions(trestleBin(tb), env, args,
		transport.WithCommandStderrWriter(stderr))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-06-18"
	req.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1.0"}
	res, err := c.Initialize(ctx, req)
	if err != nil {
		tb.Fatalf("initialize %v: %v\nstderr: %s", args, err, stderr.String())
	}
	if res.ProtocolVersion != "2025-06-18" {
		tb.Fatalf("negotiated %q", res.ProtocolVersion)
	}
	return c
}

// toolPoll is how often a test repeats a tool call while it waits: a tool
// call costs a round trip through the bridge.
var toolPoll = testfix.Every(100 * time.Millisecond)

// call runs a tool and returns its result and structured content;
// resultText is a result's text.
var (
	call       = testfix.CallTool
	resultText = testfix.Text
)

// screenshot saves the X display as out/screenshots/<name>.png (git-ignored).
func (w *window) screenshot(tb testing.TB, name string) string {
	tb.Helper()
	dir := filepath.Join("..", "..", "out", "screenshots")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, name+".png")
	out, err := exec.Command("import", "-display", w.display, "-window", "root", path).CombinedOutput()
	if err != nil {
		tb.Errorf("screenshot: %v\n%s", err, out)
	}
	return path
}

// loadImage decodes the image (a screenshot) at path.
func loadImage(tb testing.TB, path string) image.Image {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		tb.Fatalf("decode %s: %v", path, err)
	}
	return img
}

// rawBridge runs `trestle --mcp-attach` with plain pipes, for exit codes.
type rawBridge struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *syncBuffer
	done   chan error
}

func startRawBridge(tb testing.TB, env []string, args ...string) *rawBridge {
	tb.Helper()
	b := &rawBridge{stderr: &syncBuffer{}, done: make(chan error, 1)}
	b.cmd = exec.Command(trestleBin(tb), args...)
	b.cmd.Env = append(os.Environ(), env...)
	b.cmd.Stderr = b.stderr
	var err error
	if b.stdin, err = b.cmd.StdinPipe(); err != nil {
		tb.Fatal(err)
	}
	out, err := b.cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	b.stdout = bufio.NewReader(out)
	if err := b.cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go func() { b.done <- b.cmd.Wait() }()
	tb.Cleanup(func() { b.cmd.Process.Kill() })
	return b
}

func (b *rawBridge) send(tb testing.TB, line string) {
	tb.Helper()
	if _, err := io.WriteString(b.stdin, line+"\n"); err != nil {
		tb.Fatal(err)
	}
}

// recv reads one stdout line and checks it is a JSON-RPC 2.0 message.
func (b *rawBridge) recv(tb testing.TB) map[string]any {
	tb.Helper()
	line, err := b.stdout.ReadBytes('\n')
	if err != nil {
		tb.Fatalf("read stdout: %v (stderr: %s)", err, b.stderr.String())
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil || m["jsonrpc"] != "2.0" {
		tb.Fatalf("stdout line is not JSON-RPC: %q", line)
	}
	return m
}

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
