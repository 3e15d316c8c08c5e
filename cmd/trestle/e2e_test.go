package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// TestWindowEndToEnd drives a real window under Xvfb through the real
// --mcp-attach bridge with mcp-go's client, then kills the window and
// checks the bridges and the registry notice.
func TestWindowEndToEnd(t *testing.T) {
	project := testProject(t)
	w := startWindow(t, project)
	if w.entry.Dir != project || len(w.entry.Token) != 64 || w.entry.Port == 0 {
		t.Fatalf("registry entry %+v", w.entry)
	}
	info, err := os.Stat(filepath.Join(w.config, "mcp", "")) // the registry folder
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("registry folder: %v %v", info.Mode(), err)
	}

	c := w.attach(t, filepath.Join(project, "pkg"), "e2e-agent") // a folder inside the project finds it
	tools, err := c.ListTools(t.Context(), mcpListTools())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"trestle_workbench", "trestle_files", "trestle_read", "trestle_open"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Fatalf("tools/list %v lacks %s", names, want)
		}
	}

	// Each UI call is asked again while it answers busy: at load 20+ the
	// window can miss its 2 s bound (the bound itself is the subtest below).
	res, sc := callNotBusy(t, c, "trestle_open", map[string]any{"path": "main.go", "line": 6})
	if res.IsError || sc["path"] != "main.go" {
		t.Fatalf("trestle_open: %s", resultText(res))
	}
	callNotBusy(t, c, "trestle_open", map[string]any{"path": "pkg/calc.go"})
	callNotBusy(t, c, "trestle_open", map[string]any{"path": "main.go", "line": 6}) // focuses, no second tab
	res, sc = callNotBusy(t, c, "trestle_workbench", nil)
	if res.IsError {
		t.Fatalf("trestle_workbench: %s", resultText(res))
	}
	tabs, _ := sc["tabs"].([]any)
	if len(tabs) != 2 || sc["active"] != "main.go" || sc["module"] != "example.com/e2e" || sc["root"] != project {
		t.Fatalf("workbench: %v", sc)
	}
	if clients, _ := sc["clients"].([]any); len(clients) != 1 || clients[0].(map[string]any)["name"] != "e2e-agent" {
		t.Fatalf("clients: %v", sc["clients"])
	}
	res, _ = callNotBusy(t, c, "trestle_read", map[string]any{"path": "main.go", "start_line": 6, "end_line": 6})
	if got, _ := readText(resultText(res)); res.IsError || got != "\tfmt.Println(\"hello from e2e\")\n" {
		t.Fatalf("trestle_read: %q", resultText(res))
	}
	res, sc = callNotBusy(t, c, "trestle_open", map[string]any{"path": "../etc/passwd"})
	if !res.IsError || sc["state"] != "refused" {
		t.Fatalf("open outside: %v", sc)
	}
	time.Sleep(300 * time.Millisecond) // let the last frame paint
	t.Logf("screenshot: %s", w.screenshot(t, "window"))
	if res, _ := callNotBusy(t, c, "trestle_notify", map[string]any{"message": "Hello from the end-to-end test."}); res.IsError {
		t.Fatalf("trestle_notify: %s", resultText(res))
	}
	time.Sleep(300 * time.Millisecond)
	t.Logf("screenshot: %s", w.screenshot(t, "notice"))

	t.Run("busy UI answers busy within the bound", func(t *testing.T) {
		res, _ := call(t, c, "trestle_debug_stall", map[string]any{"millis": 4000})
		if res.IsError {
			t.Fatal(resultText(res))
		}
		start := time.Now()
		res, sc := call(t, c, "trestle_workbench", nil)
		took := time.Since(start)
		if !res.IsError || sc["state"] != "busy" || !strings.HasPrefix(resultText(res), "busy: ") {
			t.Fatalf("want busy, got %v", sc)
		}
		if took < 1900*time.Millisecond || took > 3500*time.Millisecond {
			t.Fatalf("busy after %v, want the 2s bound", took)
		}
		res, _ = call(t, c, "trestle_files", nil) // a non-UI tool still answers
		if res.IsError {
			t.Fatal(resultText(res))
		}
		// The stall ends and the window answers again (each busy answer
		// takes the 2 s bound, so this asks about three times).
		testfix.Wait(t, 15*time.Second, "the window answers after the stall", func() bool {
			res, _ := call(t, c, "trestle_workbench", nil)
			return !res.IsError
		})
	})

	t.Run("SIGKILL: bridges exit non-zero and the entry is reaped", func(t *testing.T) {
		var bridges []*rawBridge
		for range 2 {
			b := startRawBridge(t, w.env, "--mcp-attach", project)
			b.send(t, initLine)
			if m := b.recv(t); m["result"] == nil {
				t.Fatalf("initialize via raw bridge: %v", m)
			}
			bridges = append(bridges, b)
		}
		w.cmd.Process.Signal(syscall.SIGKILL)
		<-w.exited
		killed := time.Now()
		for i, b := range bridges {
			select {
			case err := <-b.done:
				var exit *exec.ExitError
				if !errors.As(err, &exit) || exit.ExitCode() == 0 {
					t.Fatalf("bridge %d exit: %v", i, err)
				}
				if !strings.Contains(b.stderr.String(), "went away") {
					t.Fatalf("bridge %d stderr: %q", i, b.stderr.String())
				}
			case <-time.After(30*time.Second - time.Since(killed)): // generous: a loaded machine; speed is for benchmarks
				t.Fatalf("bridge %d still running 30s after the window died (stderr %q)", i, b.stderr.String())
			}
		}
		entryFile := filepath.Join(w.config, "mcp", itoa(w.entry.PID)+".json")
		if _, err := os.Stat(entryFile); err != nil {
			t.Fatalf("a SIGKILLed window cannot remove its entry, yet it is gone: %v", err)
		}
		out, err := runTrestle(t, w.env, "--list")
		if err != nil || !strings.Contains(out, "no Trestle windows are open") {
			t.Fatalf("--list: %v %q", err, out)
		}
		if _, err := os.Stat(entryFile); !os.IsNotExist(err) {
			t.Fatalf("--list did not reap the stale entry: %v", err)
		}
	})
}

// TestHeadlessMCP runs `trestle --mcp DIR` through mcp-go's client.
func TestHeadlessMCP(t *testing.T) {
	project := testProject(t)
	env := []string{"TRESTLE_CONFIG_DIR=" + t.TempDir(), "DISPLAY="}
	c := startClient(t, env, "headless-test", "--mcp", project)
	tools, err := c.ListTools(t.Context(), mcpListTools())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "trestle_change_set,trestle_change_set_propose,trestle_definition,trestle_diagnostics,trestle_eval,trestle_files,trestle_package_api,"+
		"trestle_read,trestle_references,trestle_rename,trestle_run,trestle_run_status,trestle_search,trestle_stop,trestle_symbols,trestle_tasks" {
		t.Fatalf("headless tools: %v", names)
	}
	res, _ := call(t, c, "trestle_read", map[string]any{"path": "pkg/calc.go"})
	if text, unsaved := readText(resultText(res)); res.IsError || !strings.Contains(text, "func Add") || unsaved {
		t.Fatalf("read: %q", resultText(res))
	}
}

// TestStdoutCarriesOnlyJSONRPC feeds --mcp good, bad and oversized input
// and checks that every byte on stdout is a JSON-RPC 2.0 line.
func TestStdoutCarriesOnlyJSONRPC(t *testing.T) {
	project := testProject(t)
	cmd := exec.Command(trestleBin(t), "--mcp", project)
	cmd.Env = append(os.Environ(), "TRESTLE_CONFIG_DIR="+t.TempDir(), "DISPLAY=")
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		initLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`this is not json`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"trestle_read","arguments":{"path":"../x"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"trestle_files","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"no/such/method"}`,
	}, "\n") + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("--mcp: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
	if len(lines) != 6 { // 5 requests and one parse error
		t.Fatalf("want 6 replies, got %d:\n%s", len(lines), stdout.String())
	}
	for _, line := range lines {
		if !strings.HasPrefix(line, `{"jsonrpc":"2.0",`) {
			t.Fatalf("stdout line is not JSON-RPC: %q", line)
		}
	}
}

// TestUsageErrors checks bad command lines: one clear line, exit 2; and
// attaching with no window open: exit 1 with a message.
func TestUsageErrors(t *testing.T) {
	// Fyne's lang package logs "Error parsing user locale C" at init under
	// LANG=C (as on CI); a desktop session has a real locale.
	env := []string{"TRESTLE_CONFIG_DIR=" + t.TempDir(), "DISPLAY=", "LANG=en_US.UTF-8", "LC_ALL=", "LC_MESSAGES="}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown flag", []string{"--bogus"}, 2, "flag provided but not defined"},
		{"missing dir", []string{"/no/such/dir"}, 2, "no such folder: /no/such/dir"},
		{"two modes", []string{"--mcp", "--list"}, 2, "choose one of"},
		{"two dirs", []string{"--mcp", ".", "."}, 2, "at most one DIR"},
		{"trust while attaching", []string{"--trust", "--mcp-attach"}, 2, "--trust applies to the window and --mcp only"},
		{"bad client", []string{"mcp-config", "--client", "vim"}, 2, "unknown client"},
		{"attach, none open", []string{"--mcp-attach"}, 1, "no Trestle window is open"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := runTrestle(t, env, tt.args...)
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tt.code || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %v, output %q; want code %d and %q", err, out, tt.code, tt.want)
			}
			if tt.code == 2 && strings.Count(strings.TrimSpace(out), "\n") != 0 {
				t.Fatalf("want one line, got %q", out)
			}
		})
	}
	out, err := runTrestle(t, env, "--help")
	if err != nil || !strings.Contains(out, "--mcp-attach") || !strings.Contains(out, "--list") {
		t.Fatalf("--help: %v %q", err, out)
	}
	out, err = runTrestle(t, env, "mcp-config", "--client", "claude")
	if err != nil || !strings.Contains(out, "claude mcp add trestle") {
		t.Fatalf("mcp-config: %v %q", err, out)
	}
}

// TestWindowSIGTERMRemovesEntry: a window stopped with SIGTERM exits 0 and
// removes its registry entry.
func TestWindowSIGTERMRemovesEntry(t *testing.T) {
	w := startWindow(t, testProject(t))
	entryFile := filepath.Join(w.config, "mcp", itoa(w.entry.PID)+".json")
	w.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-w.exited:
	case <-time.After(time.Minute): // generous: a loaded machine
		t.Fatalf("the window did not exit within a minute of SIGTERM:\n%s", w.stderr.String())
	}
	if code := w.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit code %d\n%s", code, w.stderr.String())
	}
	if _, err := os.Stat(entryFile); !os.IsNotExist(err) {
		t.Fatalf("entry still there after SIGTERM: %v", err)
	}
}
