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

	"github.com/mark3labs/mcp-go/server"

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
func (definitionsOnly) Open(context.Context, string, int) error       { return errNoWindow }
func (definitionsOnly) Buffer(context.Context, project.Path) (string, bool, bool, error) {
	return "", false, false, errNoWindow
}
func (definitionsOnly) Notice(context.Context, string, string) error { return errNoWindow }
func (definitionsOnly) Selection(context.Context) (workbench.EditorSelection, error) {
	return workbench.EditorSelection{}, errNoWindow
}
func (definitionsOnly) SelectRange(context.Context, string, int, int, int, int) error {
	return errNoWindow
}
func (definitionsOnly) Output(context.Context, string, int) (string, error) {
	return "", errNoWindow
}

// TestToolNamesAreUnique checks each server's tool list has no repeats.
func TestToolNamesAreUnique(t *testing.T) {
	p := newTestProject(t)
	for _, opts := range []Options{{Project: p}, {Project: p, Window: definitionsOnly{}}} {
		seen := map[string]bool{}
		for _, tool := range NewServer(opts).tools() {
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
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	sv := services.Services{Eval: eval.NewManager(eval.ManagerOptions{Root: p.Root}), Tasks: task.NewRunner(p.Root),
		ChangeSets: changeset.NewManager(db, p), LSP: lsp.New(lsp.Config{Root: p.Root})}
	byName := func(opts Options) map[string]server.ServerTool {
		out := map[string]server.ServerTool{}
		for _, tool := range NewServer(opts).tools() {
			out[tool.Tool.Name] = tool
		}
		return out
	}
	return byName(Options{Project: p, Services: sv}),
		byName(Options{Project: p, Window: definitionsOnly{}, Services: sv, Stall: func(time.Duration) {}})
}

// TestToolRegistry checks what every tool must have: a unique trestle_
// name, a description with an example call, explicit annotations, and
// read-only tools that say so.
func TestToolRegistry(t *testing.T) {
	readOnly := map[string]bool{"trestle_workbench": true, "trestle_files": true, "trestle_read": true,
		"trestle_search": true, "trestle_run_status": true, "trestle_output": true,
		"trestle_change_set": true, "trestle_change_sets": true, "trestle_selection": true, "trestle_tasks": true,
		"trestle_symbols": true, "trestle_definition": true, "trestle_references": true, "trestle_package_api": true}
	for _, tool := range allTools(t) {
		tt := tool.Tool
		a := tt.Annotations
		switch {
		case len(tt.Name) < 9 || tt.Name[:8] != "trestle_":
			t.Errorf("%s: name must start with trestle_", tt.Name)
		case tt.Description == "" || !strings.Contains(tt.Description, "e.g. {"):
			t.Errorf("%s: description needs an example call: %q", tt.Name, tt.Description)
		case a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil:
			t.Errorf("%s: every annotation must be set explicitly: %+v", tt.Name, a)
		case *a.ReadOnlyHint != readOnly[tt.Name]:
			t.Errorf("%s: readOnlyHint %v, want %v", tt.Name, *a.ReadOnlyHint, readOnly[tt.Name])
		case *a.ReadOnlyHint && *a.DestructiveHint:
			t.Errorf("%s: read-only and destructive", tt.Name)
		}
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
			got, err := json.MarshalIndent(tool.Tool, "", "  ")
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
