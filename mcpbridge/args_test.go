package mcpbridge

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// goWords are what a Go error leaks into a message: type names, json's
// wording. No message an agent reads may contain them.
var goWords = regexp.MustCompile(`Go (struct|value)|unmarshal|Params\b|params\.|\bint\b|\[\]string|map\[`)

// wrongValue is a value of another JSON type than ty.
func wrongValue(ty string) any {
	if ty == "string" {
		return 42
	}
	return "x"
}

// callDirect calls a tool's registered handler among tools (argument
// check included) with args. A test shares one allTools across its calls,
// as one server serves every call of a session: each call here is refused
// by the argument check before it reaches a service, so none changes what
// the next sees (building the servers and services per call made
// TestArgumentTypeErrorsNameTheArgument take minutes under -race).
func callDirect(t *testing.T, tools map[string]server.ServerTool, name string, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	tool, ok := tools[name]
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := tool.Handler(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: Go error %v", name, err)
	}
	return res, textOf(res)
}

// TestArgumentTypeErrorsNameTheArgument sends every argument of every tool
// a value of the wrong JSON type: each is refused as a problem that names
// the argument and what it must be, never a Go type.
func TestArgumentTypeErrorsNameTheArgument(t *testing.T) {
	tools := allTools(t)
	for name, tool := range tools {
		schema := inputSchema(&tool.Tool)
		for _, arg := range propertyNames(schema) {
			prop := schema.Properties[arg]
			t.Run(name+"/"+arg, func(t *testing.T) {
				res, text := callDirect(t, tools, name, map[string]any{arg: wrongValue(prop.Type)})
				want := "problem: " + arg + " must be " + typeWords(prop.Type)
				if !res.IsError || text != want || goWords.MatchString(text) {
					t.Fatalf("text %q, want %q", text, want)
				}
			})
		}
	}
}

// TestUnknownArgumentsAreRefused: every tool refuses an argument its
// schema does not declare and lists the ones it takes, in order.
func TestUnknownArgumentsAreRefused(t *testing.T) {
	tools := allTools(t)
	for name, tool := range tools {
		t.Run(name, func(t *testing.T) {
			names := propertyNames(inputSchema(&tool.Tool))
			res, text := callDirect(t, tools, name, map[string]any{"bogus": 1})
			want := `problem: unknown argument "bogus"; allowed: ` + strings.Join(names, ", ")
			if len(names) == 0 {
				want = `problem: unknown argument "bogus"; this tool takes no arguments, call it with {}`
			}
			if !res.IsError || text != want {
				t.Fatalf("text %q, want %q", text, want)
			}
		})
	}
}

// TestArgumentsOverTheWire is the issue's own cases through a real client
// on the stdio path.
func TestArgumentsOverTheWire(t *testing.T) {
	c := stdioClient(t, nil)
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"unknown", map[string]any{"path": "go.mod", "bogus": 1}, `problem: unknown argument "bogus"; allowed: path, start_line, end_line`},
		{"number for a string", map[string]any{"path": 42}, "problem: path must be a string"},
		{"fraction for a line", map[string]any{"path": "go.mod", "start_line": 1.5}, "problem: start_line must be a whole number"},
		{"null is left out", map[string]any{"path": "go.mod", "start_line": nil}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, sc := callTool(t, c, "trestle_read", tt.args)
			if tt.want == "" {
				if res.IsError {
					t.Fatalf("refused: %s", textOf(res))
				}
				return
			}
			if !res.IsError || sc["state"] != "problem" || textOf(res) != tt.want {
				t.Fatalf("%v %q, want %q", sc, textOf(res), tt.want)
			}
		})
	}
}

// TestNestedArgumentsAndEnums checks arguments inside arrays of objects
// and the fixed value sets.
func TestNestedArgumentsAndEnums(t *testing.T) {
	edit := func(e map[string]any) map[string]any {
		return map[string]any{"title": "t", "changes": []any{map[string]any{"action": "edit", "path": "main.go", "edits": []any{e}}}}
	}
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"trestle_change_set_propose", edit(map[string]any{"old_text": "a", "new_text": 3}),
			"problem: changes[0].edits[0].new_text must be a string"},
		{"trestle_change_set_propose", edit(map[string]any{"old_text": "a", "new_txt": "b"}),
			`problem: unknown argument "new_txt" in changes[0].edits[0]; allowed: old_text, new_text`},
		{"trestle_change_set_propose", map[string]any{"title": "t", "changes": []any{map[string]any{"action": "move", "path": "a"}}},
			`problem: changes[0].action must be one of "edit", "create", "replace", "delete", not "move"`},
		{"trestle_change_set_propose", map[string]any{"title": "t"}, "problem: changes is required"},
		{"trestle_stop", map[string]any{"what": "all"}, `problem: what must be one of "run", "eval", not "all"`},
		{"trestle_output", map[string]any{"pane": "problems"}, `problem: pane must be one of "run", "eval", not "problems"`},
		{"trestle_change_sets", map[string]any{"state": "open"}, `problem: state must be one of "pending", "applied", "partly_applied", "rejected", "withdrawn", "stale", "conflict", "reverted", not "open"`},
		{"trestle_run", map[string]any{"task": "test", "args": []any{"-run", 3}}, "problem: args[1] must be a string"},
	}
	tools := allTools(t)
	for _, tt := range tests {
		t.Run(tt.tool+"/"+tt.want, func(t *testing.T) {
			res, text := callDirect(t, tools, tt.tool, tt.args)
			if !res.IsError || text != tt.want {
				t.Fatalf("text %q, want %q", text, tt.want)
			}
		})
	}
}

// TestSchemasHaveNoNullTypes: no schema declares a type list (the
// generator's ["null","array"] for slices), which strict clients reject;
// and every fixed value set is an enum.
func TestSchemasHaveNoNullTypes(t *testing.T) {
	enums := map[string]string{"trestle_stop": "what", "trestle_output": "pane", "trestle_change_sets": "state"}
	for name, tool := range allTools(t) {
		js, err := json.Marshal(tool.Tool)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(js), `"null"`) || regexp.MustCompile(`"type":\[`).Match(js) {
			t.Errorf("%s: a type list in its schema: %s", name, js)
		}
		if arg, ok := enums[name]; ok {
			if prop := inputSchema(&tool.Tool).Properties[arg]; prop == nil || len(prop.Enum) == 0 {
				t.Errorf("%s: %s is not an enum", name, arg)
			}
		}
	}
	var s jsonschema.Schema
	json.Unmarshal(allTools(t)["trestle_change_set_propose"].Tool.RawInputSchema, &s)
	if a := s.Properties["changes"].Items.Properties["action"]; !slices.Equal(a.Enum, []any{"edit", "create", "replace", "delete"}) {
		t.Errorf("changes.action enum %v", a.Enum)
	}
}

// TestDecodeProblemsNameTheField covers the decoder's own messages, for
// what gets past the schema check.
func TestDecodeProblemsNameTheField(t *testing.T) {
	var p proposeParams
	if got := decodeArgs(map[string]any{"changes": []any{map[string]any{"edits": []any{map[string]any{"old_text": 1}}}}}, &p); got != "changes.edits.old_text must be a string" {
		t.Fatalf("got %q", got)
	}
	var r readParams
	if got := decodeArgs(map[string]any{"start_line": "x"}, &r); got != "start_line must be a whole number" {
		t.Fatalf("got %q", got)
	}
}

// TestUnknownToolNamesTheClosest: a call of a tool the server does not
// have is a -32602 error that names the closest tools it has.
func TestUnknownToolNamesTheClosest(t *testing.T) {
	c := stdioClient(t, nil)
	req := mcp.CallToolRequest{}
	req.Params.Name = "trestle_raed"
	_, err := c.CallTool(context.Background(), req)
	want := `unknown tool "trestle_raed"; the closest: trestle_read, trestle_files, trestle_search (tools/list has all 3)`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "invalid params") {
		t.Fatalf("got %v, want -32602 %s", err, want)
	}
	req.Params.Name = "trestle_workbench" // a window tool, asked of the headless server
	if _, err = c.CallTool(context.Background(), req); err == nil || !strings.Contains(err.Error(), `unknown tool "trestle_workbench"; the closest: `) {
		t.Fatalf("got %v", err)
	}
}

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// TestSchemasAreSnakeCase: every property name in every tool's input and
// output schema is snake_case (the output once mixed Path, Line, Col,
// Message, Selection, State and PID in).
// otherNames are property names for a concept every tool names otherwise:
// one name per concept across tools (start_col, column and col once
// disagreed; duration and duration_ms; error and message).
var otherNames = map[string]string{
	"col": "column", "start_col": "start_column", "end_col": "end_column",
	"duration": "duration_ms", "error": "message", "err": "message", "msg": "message",
}

// TestSchemasAreSnakeCase: every property name in every tool's input and
// result schema is snake_case (the output once mixed Path, Line, Col,
// Message, Selection, State and PID in), and each concept has one name.
func TestSchemasAreSnakeCase(t *testing.T) {
	var walk func(tool, where string, v any)
	walk = func(tool, where string, v any) {
		switch val := v.(type) {
		case map[string]any:
			if props, ok := val["properties"].(map[string]any); ok {
				for name, sub := range props {
					if !snakeCase.MatchString(name) {
						t.Errorf("%s: %s property %q is not snake_case", tool, where, name)
					}
					if want, ok := otherNames[name]; ok {
						t.Errorf("%s: %s property %q: every tool calls it %q", tool, where, name, want)
					}
					walk(tool, where, sub)
				}
			}
			if items, ok := val["items"]; ok {
				walk(tool, where, items)
			}
		}
	}
	for name, tool := range allTools(t) {
		var in, out any
		json.Unmarshal(tool.Tool.RawInputSchema, &in)
		rs, _ := resultSchemaOf(name)
		raw, _ := json.Marshal(rs)
		json.Unmarshal(raw, &out)
		walk(name, "input", in)
		walk(name, "output", out)
	}
}
