package mcpbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"

	"trestle/app/project"
	"trestle/app/workbench"
)

// shownWindow is a window for these tests: one open, unsaved tab with a
// selection, and panes with text. The real window is driven end to end in
// cmd/trestle under Xvfb; here only what the tools say about it matters.
type shownWindow struct{}

func (shownWindow) Tabs(context.Context) ([]workbench.Tab, error) {
	return []workbench.Tab{{Path: "main.go", Active: true, Dirty: true}, {Path: "pkg/util.go"}}, nil
}
func (shownWindow) Open(context.Context, project.Path, int) error { return nil }
func (shownWindow) Buffer(_ context.Context, cp project.Path) (string, bool, bool, error) {
	if cp.Rel() == "main.go" {
		return "package main\n\nfunc main() {\n\tprintln(1 + 1)\n}\n", true, true, nil
	}
	return "", false, false, nil
}
func (shownWindow) Notice(context.Context, string, string) error { return nil }
func (shownWindow) Selection(context.Context) (workbench.EditorSelection, error) {
	return workbench.EditorSelection{Path: "main.go", Text: "1 + 1", StartLine: 4, StartCol: 10, EndLine: 4, EndCol: 15}, nil
}
func (shownWindow) SelectRange(context.Context, project.Path, int, int, int, int) error { return nil }
func (shownWindow) Output(context.Context, string, int) (string, error) {
	return "$ go test ./...\nok  \texample.com/demo\t0.1s", nil
}

// notActedOn are the structured fields an agent does not act on, so the
// text may leave them out: timings, the listener's address, session ids,
// counters, and flags the state already says.
var notActedOn = map[string]bool{
	"duration_ms": true, "duration": true, "created": true, "decided": true, "files_searched": true,
	"session": true, "version": true, "listener": true, "undecided": true, "evaluations": true,
	"dropped_lines": true, "lines": true, "start_line": true, "end_line": true, "start_column": true, "end_column": true,
}

// sameAs are structured flags the text says in other words.
var sameAs = map[string]string{"dirty": "unsaved", "regexp": "regexp"}

// TestTextCarriesWhatAgentsActOn calls every tool in both modes and checks
// that each scalar in its structured content an agent acts on (ids,
// sha256, paths, lines, problems, states, exit codes...) is also in its
// text, for clients that pass only the text to the model; and that the
// structured content validates against the tool's output schema.
func TestTextCarriesWhatAgentsActOn(t *testing.T) {
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"trestle_workbench", nil},
		{"trestle_files", nil},
		{"trestle_read", map[string]any{"path": "main.go"}},
		{"trestle_read", map[string]any{"path": "pkg/util.go"}},
		{"trestle_search", map[string]any{"pattern": "println"}},
		{"trestle_selection", nil},
		{"trestle_open", map[string]any{"path": "main.go", "line": 3}},
		{"trestle_output", map[string]any{"pane": "run"}},
		{"trestle_notify", map[string]any{"message": "hello"}},
		{"trestle_eval", map[string]any{"code": "import \"fmt\"\nfmt.Println(\"printed\")\n40 + 2"}},
		{"trestle_eval", map[string]any{"code": "undefinedThing"}},
		{"trestle_eval_selection", nil},
		{"trestle_evaluator_restart", nil},
		{"trestle_run", map[string]any{"task": "echo"}},
		{"trestle_run_status", nil},
		{"trestle_tasks", nil},
		{"trestle_diagnostics", nil},
		{"trestle_stop", map[string]any{"what": "run"}},
		{"trestle_change_set_propose", map[string]any{"title": "Add a note", "description": "why",
			"changes": []any{map[string]any{"action": "create", "path": "NOTE.md", "content": "note\n"}}}},
		{"trestle_change_sets", nil},
		{"trestle_change_set", map[string]any{"id": "cs-1"}},
		{"trestle_change_set_withdraw", map[string]any{"id": "cs-1"}},
	}
	for _, mode := range []struct {
		name   string
		window workbench.Window
	}{{"headless", nil}, {"window", shownWindow{}}} {
		t.Run(mode.name, func(t *testing.T) {
			c, _, served := modeClient(t, mode.window)
			list, _ := c.ListTools(context.Background(), mcp.ListToolsRequest{})
			schemas := map[string]*jsonschema.Resolved{}
			for _, tool := range list.Tools {
				var s jsonschema.Schema
				rs, ok := resultSchemaOf(tool.Name)
				if !ok { // a text-only tool: on failure, {state, message}
					rs = mcp.ToolOutputSchema{Type: "object", Properties: map[string]any{
						"state": map[string]any{"type": "string"}, "message": map[string]any{"type": "string"}},
						Required: []string{"state", "message"}}
				}
				raw, _ := json.Marshal(rs)
				if err := json.Unmarshal(raw, &s); err != nil {
					t.Fatal(err)
				}
				r, err := s.Resolve(nil)
				if err != nil {
					t.Fatalf("%s: output schema: %v", tool.Name, err)
				}
				schemas[tool.Name] = r
			}
			for _, call := range calls {
				if !containsName(served, call.tool) {
					continue
				}
				res, sc := callTool(t, c, call.tool, call.args)
				text := textOf(res)
				if _, ok := resultSchemaOf(call.tool); !ok && !res.IsError {
					if res.StructuredContent != nil {
						t.Errorf("%s: a text-only tool answered with structured content too: %v", call.tool, res.StructuredContent)
					}
					continue
				}
				if err := schemas[call.tool].Validate(sc); err != nil {
					t.Errorf("%s: structured content does not fit the output schema: %v\n%v", call.tool, err, sc)
				}
				if call.tool == "trestle_change_set_withdraw" {
					for _, f := range sc["files"].([]any) {
						if st := f.(map[string]any)["state"]; st != "withdrawn" {
							t.Errorf("a withdrawn set reports a file as %v", st)
						}
					}
				}
				for _, leaf := range leaves(sc, "") {
					if !inText(text, leaf) {
						t.Errorf("%s %v: %s = %v is not in the text:\n%s", call.tool, call.args, leaf.path, leaf.value, text)
					}
				}
			}
		})
	}
}

func containsName(list []string, name string) bool {
	for _, n := range list {
		if n == name {
			return true
		}
	}
	return false
}

type leaf struct {
	path, key string
	value     any
}

// leaves lists the scalars of v an agent acts on.
func leaves(v any, path string) []leaf {
	var out []leaf
	switch val := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(val))
		for k := range val {
			if !snakeCase.MatchString(k) && !strings.HasSuffix(path, ".env") { // env's keys are data
				out = append(out, leaf{path: path + "." + k + " (a field name that is not snake_case)", value: "\x00"})
			}
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if notActedOn[k] || (k == "state" && val[k] == "done") {
				continue
			}
			sub := leaves(val[k], path+"."+k)
			for i := range sub {
				if sub[i].key == "" {
					sub[i].key = k
				}
			}
			out = append(out, sub...)
		}
	case []any:
		for i, item := range val {
			out = append(out, leaves(item, fmt.Sprintf("%s[%d]", path, i))...)
		}
	default:
		out = append(out, leaf{path: path, value: v})
	}
	return out
}

func inText(text string, l leaf) bool {
	switch v := l.value.(type) {
	case string:
		return v == "" || strings.Contains(text, v)
	case float64:
		return strings.Contains(text, strconv.FormatFloat(v, 'f', -1, 64))
	case bool:
		if !v {
			return true
		}
		word := l.key
		if w, ok := sameAs[word]; ok {
			word = w
		}
		return strings.Contains(text, strings.ReplaceAll(word, "_", " "))
	}
	return true
}
