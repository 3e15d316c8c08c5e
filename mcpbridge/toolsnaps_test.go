package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/agent"
	"trestle/app/changeset"
	"trestle/app/eval"
	"trestle/app/lsp"
	"trestle/app/project"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/task"
	"trestle/app/workbench"
)

// definitionsOnly satisfies Window so the window tool set can be listed; its
// methods are never called by these tests.
type definitionsOnly struct{}

var errNoWindow = errors.New("no window in this test")

func (definitionsOnly) Tabs(context.Context) ([]workbench.Tab, error) { return nil, errNoWindow }
func (definitionsOnly) Open(context.Context, project.Path, int) error { return errNoWindow }
func (definitionsOnly) Buffer(context.Context, project.Path) (string, bool, bool, error) {
	return "", false, false, errNoWindow
}
func (definitionsOnly) Notice(context.Context, string, string) error { return errNoWindow }
func (definitionsOnly) Selection(context.Context) (workbench.EditorSelection, error) {
	return workbench.EditorSelection{}, errNoWindow
}
func (definitionsOnly) SelectRange(context.Context, project.Path, int, int, int, int) error {
	return errNoWindow
}
func (definitionsOnly) Output(context.Context, string, int) (string, error) {
	return "", errNoWindow
}

// TestToolNamesAreUnique checks each server's tool list has no repeats.
func TestToolNamesAreUnique(t *testing.T) {
	p := newTestProject(t)
	for _, ag := range []*agent.Agent{testAgent(p, nil, services.Services{}), testAgent(p, definitionsOnly{}, services.Services{})} {
		seen := map[string]bool{}
		for _, tool := range NewServer(ag, Options{}).tools() {
			if seen[tool.Tool.Name] {
				t.Errorf("%s registered twice", tool.Tool.Name)
			}
			seen[tool.Tool.Name] = true
		}
	}
}

// allTools is every tool by name, in its window form where it has one.
func allTools(t *testing.T) map[string]server.ServerTool {
	t.Helper()
	headless, window := modeTools(t)
	for name, tool := range window {
		headless[name] = tool
	}
	return headless
}

// modeTools is the headless server's tools and the window's, each with
// every service.
func modeTools(t *testing.T) (headless, window map[string]server.ServerTool) {
	t.Helper()
	p := newTestProject(t)
	sv := everyService(t, p)
	byName := func(srv *Server) map[string]server.ServerTool {
		out := map[string]server.ServerTool{}
		for _, tool := range srv.tools() {
			out[tool.Tool.Name] = tool
		}
		return out
	}
	return byName(NewServer(testAgent(p, nil, sv), Options{})),
		byName(NewServer(testAgent(p, definitionsOnly{}, sv), Options{Stall: func(time.Duration) {}}))
}

// everyService is an evaluator, a task runner, change sets over a temp
// store and a language server for p; none starts a process until used.
func everyService(t *testing.T, p *project.Project) services.Services {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	return services.Services{Eval: eval.NewManager(eval.ManagerOptions{Root: p.Root}), Tasks: task.NewRunner(p.Root),
		ChangeSets: changeset.NewManager(db, p), LSP: lsp.New(lsp.Config{Root: p.Root})}
}

// TestToolRegistry checks what every served tool must have beyond what
// startup checks (see TestToolsetsRefuseBadDeclarations): a description
// with an example call.
func TestToolRegistry(t *testing.T) {
	for _, tool := range allTools(t) {
		tt := tool.Tool
		if !strings.Contains(tt.Description, "e.g. {") {
			t.Errorf("%s: description needs an example call: %q", tt.Name, tt.Description)
		}
	}
}

// TestToolsetsRefuseBadDeclarations: a tool whose annotations are missing
// or contradict its declaration in its toolset, a duplicate, a bad name or
// an unknown set stops the server at startup with an error that names the
// tool and its set.
func TestToolsetsRefuseBadDeclarations(t *testing.T) {
	tool := func(name string, opts ...mcp.ToolOption) server.ServerTool {
		return server.ServerTool{Tool: mcp.NewTool(name, append([]mcp.ToolOption{mcp.WithDescription("d")}, opts...)...)}
	}
	readOnly := hints("Look", true, false, true)
	writes := hints("Do", false, false, false)
	tests := []struct {
		name  string
		sets  []*toolset
		names []string
		want  string
	}{
		{"read tool not annotated read-only", []*toolset{newToolset("a", "").read(tool("trestle_x", writes))}, []string{"a"},
			"tool trestle_x in toolset a is added with read but is not annotated read-only"},
		{"write tool annotated read-only", []*toolset{newToolset("a", "").write(tool("trestle_x", readOnly))}, []string{"a"},
			"tool trestle_x in toolset a is added with write but is annotated read-only"},
		{"read tool that destroys", []*toolset{newToolset("a", "").read(tool("trestle_x", hints("X", true, true, true)))}, []string{"a"},
			"is added with read but is annotated destructive"},
		{"no annotations", []*toolset{newToolset("a", "").read(tool("trestle_x"))}, []string{"a"},
			"tool trestle_x in toolset a must set its title and every annotation"},
		{"hints set one by one, open-world left to the default", []*toolset{newToolset("a", "").write(tool("trestle_x",
			mcp.WithReadOnlyHintAnnotation(false), mcp.WithDestructiveHintAnnotation(false), mcp.WithIdempotentHintAnnotation(false)))}, []string{"a"},
			"must set its title and every annotation"},
		{"a hint removed", []*toolset{newToolset("a", "").read(func() server.ServerTool {
			st := tool("trestle_x", readOnly)
			st.Tool.Annotations.IdempotentHint = nil
			return st
		}())}, []string{"a"}, "must set its title and every annotation"},
		{"no description", []*toolset{newToolset("a", "").read(server.ServerTool{Tool: mcp.NewTool("trestle_x", readOnly)})}, []string{"a"},
			"tool trestle_x in toolset a has no description"},
		{"name without the prefix", []*toolset{newToolset("a", "").read(tool("files", readOnly))}, []string{"a"},
			"must start with trestle_"},
		{"in two sets", []*toolset{newToolset("a", "").read(tool("trestle_x", readOnly)), newToolset("b", "").read(tool("trestle_x", readOnly))},
			[]string{"a", "b"}, "tool trestle_x is in toolsets a and b"},
		{"unknown set", []*toolset{newToolset("a", "")}, []string{"a", "b"}, `no toolset named "b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := serve(tt.sets, tt.names, &Server{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
	// A set whose needs are missing is not served, and not checked either.
	skipped := newToolset("a", "").when(func(*Server) bool { return false }).read(tool("trestle_x", writes))
	if tools, err := serve([]*toolset{skipped}, []string{"a"}, &Server{}); err != nil || len(tools) != 0 {
		t.Fatalf("a set without its needs: %v, %v", tools, err)
	}
	good := newToolset("a", "").read(tool("trestle_x", readOnly)).write(tool("trestle_y", writes))
	if tools, err := serve([]*toolset{good}, []string{"a"}, &Server{}); err != nil || len(tools) != 2 {
		t.Fatalf("a good set: %v, %v", tools, err)
	}
}

// TestEveryModeServesOnlyKnownToolsets: each mode's list names toolsets
// that exist, and every toolset is served by some mode.
func TestEveryModeServesOnlyKnownToolsets(t *testing.T) {
	srv := NewServer(testAgent(newTestProject(t), nil, services.Services{}), Options{})
	served := map[string]bool{}
	for _, names := range modeToolsets {
		for _, n := range names {
			served[n] = true
		}
	}
	for _, ts := range srv.toolsets() {
		if !served[ts.name] {
			t.Errorf("toolset %s is served by no mode", ts.name)
		}
		if ts.description == "" {
			t.Errorf("toolset %s has no description", ts.name)
		}
		delete(served, ts.name)
	}
	for n := range served {
		t.Errorf("a mode serves toolset %s, which does not exist", n)
	}
}

// TestToolSnapshots compares each tool's JSON definition with
// testdata/toolsnaps/<name>.snap (<name>.headless.snap for a headless
// definition that differs), so a change to the surface shows in review.
// UPDATE_TOOLSNAPS=true go test ./mcpbridge/... rewrites them.
func TestToolSnapshots(t *testing.T) {
	update := os.Getenv("UPDATE_TOOLSNAPS") == "true"
	dir := filepath.Join("testdata", "toolsnaps")
	snaps := allTools(t)
	headless, window := modeTools(t)
	for name, tool := range headless {
		if w, ok := window[name]; ok && !reflect.DeepEqual(w.Tool, tool.Tool) {
			snaps[name+".headless"] = tool
		}
	}
	for name, tool := range snaps {
		t.Run(name, func(t *testing.T) {
			got, err := snapshot(tool)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join(dir, name+".snap")
			if update {
				os.MkdirAll(dir, 0o755)
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("no snapshot for %s; run UPDATE_TOOLSNAPS=true go test ./mcpbridge/...", name)
			}
			if string(got) != string(want) {
				t.Fatalf("%s changed; if intended, run UPDATE_TOOLSNAPS=true go test ./mcpbridge/...\ngot:\n%s\nwant:\n%s", name, got, want)
			}
		})
	}
}

// snapshot is a tool's definition as tools/list sends it, with the shape
// of its structured content (kept by Trestle, not sent) beside it.
func snapshot(tool server.ServerTool) ([]byte, error) {
	raw, err := json.Marshal(tool.Tool)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	if rs, ok := resultSchemaOf(tool.Tool.Name); ok {
		m["structuredContent (not in tools/list)"] = rs
	}
	return json.MarshalIndent(m, "", "  ")
}
