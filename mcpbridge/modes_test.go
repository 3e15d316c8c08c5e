package mcpbridge

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"trestle/app/changeset"
	"trestle/app/eval"
	"trestle/app/lsp"
	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/task"
	"trestle/app/workbench"
)

// modesJSON is trestleJSON with a task in a folder with a timeout and a
// selection with tags, environment and preloads.
const modesJSON = `{"tasks": {
  "echo": {"command": ["sh", "-c", "echo one; echo two; exit 3"]},
  "slow": {"command": ["sh", "-c", "echo start; sleep 30"]},
  "inpkg": {"command": ["ls"], "dir": "pkg", "timeout": "30s"}
}, "selections": {"tagged": {"tags": ["integration"], "env": {"DEMO": "on"}, "preload": ["example.com/demo/pkg"]}}}`

// modeClient serves a project with every service, in the window form
// (window set) or headless, over the stdio path, and returns the client,
// its initialize answer and the names tools/list gives.
func modeClient(t *testing.T, window workbench.Window) (*client.Client, *mcp.InitializeResult, []string) {
	t.Helper()
	c, init := connectStdioInit(t, modeServer(t, window), "modes-test")
	list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	return c, init, names
}

// modeServer is a server for a project with every service, in the window
// form (window set) or headless.
func modeServer(t *testing.T, window workbench.Window) *Server {
	t.Helper()
	p := newTestProject(t)
	os.WriteFile(filepath.Join(p.Root, projconf.FileName), []byte(modesJSON), 0o644)
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	sv := services.Services{
		Eval:       eval.NewManager(eval.ManagerOptions{Root: p.Root, Module: p.Module, WorkerCommand: testWorkerCommand}),
		Tasks:      task.NewRunner(p.Root),
		ChangeSets: changeset.NewManager(db, p),
		Gate:       permission.NewGate(permission.PolicyAllow, nil),
		Config:     func() (projconf.Config, error) { return projconf.Load(p.Root) },
		LSP:        lsp.New(lsp.Config{Root: p.Root}), // starts nothing until a gopls tool is called
	}
	t.Cleanup(sv.Eval.Close)
	t.Cleanup(func() { sv.LSP.Close() })
	return NewServer(testAgent(p, window, sv), quiet())
}

var toolWord = regexp.MustCompile(`\btrestle_[a-z_]+`)

// namesOnly fails when text names a trestle_ tool that is not in served.
func namesOnly(t *testing.T, what, text string, served []string) {
	t.Helper()
	for _, w := range toolWord.FindAllString(text, -1) {
		if !slices.Contains(served, w) {
			t.Errorf("%s names %s, which this mode does not serve (it serves %s)", what, w, strings.Join(served, ", "))
		}
	}
}

// TestEachModeNamesOnlyItsTools: the instructions and every tool
// description a mode sends name only tools that mode's tools/list has.
func TestEachModeNamesOnlyItsTools(t *testing.T) {
	for _, mode := range []struct {
		name   string
		window workbench.Window
	}{{"headless", nil}, {"window", definitionsOnly{}}} {
		t.Run(mode.name, func(t *testing.T) {
			c, init, served := modeClient(t, mode.window)
			if !strings.Contains(init.Instructions, "trestle_") {
				t.Fatalf("instructions name no tools: %q", init.Instructions)
			}
			namesOnly(t, "the instructions", init.Instructions, served)
			for _, name := range served {
				if !strings.HasPrefix(name, "trestle_debug_") && !regexp.MustCompile(`\b`+name+`\b`).MatchString(init.Instructions) {
					t.Errorf("the %s instructions never name %s, which this mode serves", mode.name, name)
				}
			}
			list, _ := c.ListTools(context.Background(), mcp.ListToolsRequest{})
			for _, tool := range list.Tools {
				namesOnly(t, tool.Name+"'s description", tool.Description, served)
				for _, w := range []string{"window", "Run pane", "Eval pane", "editor"} {
					if mode.window == nil && strings.Contains(tool.Description, w) {
						t.Errorf("headless %s's description speaks of the %s: %q", tool.Name, w, tool.Description)
					}
				}
			}
		})
	}
}

// TestHeadlessServesRunStatusStopAndTasks: trestle_run's answers point at
// trestle_run_status, so the headless server has it, with trestle_stop and
// trestle_tasks, and a run started headless can be followed and stopped.
func TestHeadlessServesRunStatusStopAndTasks(t *testing.T) {
	c, init, served := modeClient(t, nil)
	want := []string{"trestle_files", "trestle_read", "trestle_search", "trestle_eval", "trestle_run", "trestle_run_status",
		"trestle_stop", "trestle_tasks", "trestle_change_set_propose", "trestle_change_set", "trestle_diagnostics",
		"trestle_symbols", "trestle_definition", "trestle_references", "trestle_package_api", "trestle_rename"}
	slices.Sort(want)
	if !slices.Equal(served, want) {
		t.Fatalf("headless tools %v, want %v", served, want)
	}
	if !strings.Contains(init.Instructions, "`trestle changes`") {
		t.Errorf("headless instructions do not say how the person reviews: %q", init.Instructions)
	}
	res, sc := callTool(t, c, "trestle_run", map[string]any{"task": "slow", "wait_seconds": 0})
	if res.IsError || sc["run_state"] != "running" {
		t.Fatalf("start: %q", textOf(res))
	}
	namesOnly(t, "trestle_run's answer", textOf(res), served)
	if !strings.Contains(textOf(res), "trestle_run_status") {
		t.Fatalf("a running run's answer does not say how to follow it: %q", textOf(res))
	}
	id := sc["run_id"].(string)
	res, sc = callTool(t, c, "trestle_run_status", map[string]any{"run_id": id})
	if res.IsError || sc["run_state"] != "running" {
		t.Fatalf("status: %q", textOf(res))
	}
	res, sc = callTool(t, c, "trestle_stop", map[string]any{"what": "run"})
	if res.IsError || sc["run_id"] != id {
		t.Fatalf("stop: %q", textOf(res))
	}
	res, sc = callTool(t, c, "trestle_run_status", map[string]any{"run_id": id, "wait_seconds": 30})
	if sc["run_state"] != "stopped" {
		t.Fatalf("after stop: %q", textOf(res))
	}
	res, _ = callTool(t, c, "trestle_tasks", nil)
	if res.IsError || !strings.Contains(textOf(res), "slow: sh -c") {
		t.Fatalf("tasks: %q", textOf(res))
	}
	res, _ = callTool(t, c, "trestle_change_set_propose", map[string]any{"title": "t",
		"changes": []any{map[string]any{"action": "create", "path": "new.txt", "content": "x\n"}}})
	if res.IsError || !strings.Contains(textOf(res), "`trestle changes`") || strings.Contains(textOf(res), "window") {
		t.Fatalf("headless proposal's answer: %q", textOf(res))
	}
}

// TestDiagnosticsTellTheLastGoRunTruly: trestle_diagnostics reports the
// last go build, vet or test, not a later task that says nothing of the
// code (a shell task was reported as "No problems in main.go from the
// last run, run-2 (sh -c …)"), and a run that failed without a problem
// placed in a file is not "No problems" (a bad package pattern read as a
// clean vet).
func TestDiagnosticsTellTheLastGoRunTruly(t *testing.T) {
	c, _, _ := modeClient(t, nil)
	res, sc := callTool(t, c, "trestle_run", map[string]any{"task": "vet", "args": []any{"./nope/..."}, "wait_seconds": 60})
	if sc["run_state"] != "failed" {
		t.Fatalf("go vet ./nope/...: %q", textOf(res))
	}
	vetID := sc["run_id"].(string)
	res, sc = callTool(t, c, "trestle_run", map[string]any{"task": "echo", "wait_seconds": 60})
	if sc["run_state"] != "failed" || sc["run_id"] == vetID {
		t.Fatalf("the echo task: %q", textOf(res))
	}
	res, sc = callTool(t, c, "trestle_diagnostics", map[string]any{"path": "main.go"})
	text := textOf(res)
	if res.IsError || sc["run_id"] != vetID || strings.Contains(text, "sh -c") {
		t.Fatalf("diagnostics after go vet then a shell task report %v, want %s (go vet ./nope/...):\n%s", sc["run_id"], vetID, text)
	}
	if strings.HasPrefix(text, "No problems") || !strings.Contains(text, "failed (exit code 1) with no problem placed in main.go") ||
		!strings.Contains(text, `trestle_run_status {"run_id":"`+vetID+`"}`) {
		t.Fatalf("a failed vet with no problem in a file reads:\n%s", text)
	}
	res, sc = callTool(t, c, "trestle_run", map[string]any{"task": "build", "wait_seconds": 60})
	if sc["run_state"] != "passed" {
		t.Fatalf("go build: %q", textOf(res))
	}
	res, _ = callTool(t, c, "trestle_diagnostics", nil)
	if text := textOf(res); !strings.HasPrefix(text, "No problems from the last run, "+sc["run_id"].(string)+" (go build ./...).") {
		t.Fatalf("diagnostics after a clean build:\n%s", text)
	}
}

// TestAnswersSuggestWaitsUnderClientTimeouts: every wait an answer tells
// the agent to make ends before a client's default 60 s request timeout
// (a proposal's answer said wait_seconds 120: the TypeScript SDK's
// default timeout cancelled that call at 60 s with "Request timed out").
func TestAnswersSuggestWaitsUnderClientTimeouts(t *testing.T) {
	c, _, _ := modeClient(t, nil)
	answers := map[string]string{}
	res, _ := callTool(t, c, "trestle_change_set_propose", map[string]any{"title": "t",
		"changes": []any{map[string]any{"action": "create", "path": "new.txt", "content": "x\n"}}})
	answers["trestle_change_set_propose"] = textOf(res)
	res, _ = callTool(t, c, "trestle_rename", map[string]any{"path": "main.go", "line": 3, "column": 6, "new_name": "start"})
	answers["trestle_rename"] = textOf(res)
	res, _ = callTool(t, c, "trestle_run", map[string]any{"task": "slow", "wait_seconds": 1})
	answers["trestle_run"] = textOf(res)
	callTool(t, c, "trestle_stop", map[string]any{"what": "run"})
	waits := regexp.MustCompile(`"wait_seconds":(\d+)`)
	for tool, text := range answers {
		m := waits.FindAllStringSubmatch(text, -1)
		if len(m) == 0 {
			t.Errorf("%s's answer does not say how to wait for what it started:\n%s", tool, text)
		}
		for _, w := range m {
			if n, _ := strconv.Atoi(w[1]); n > 25 {
				t.Errorf("%s's answer suggests wait_seconds %d, past what a client's default timeout allows:\n%s", tool, n, text)
			}
		}
	}
}
