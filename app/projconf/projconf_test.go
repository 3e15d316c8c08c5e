package projconf

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestLoadWithoutFileGivesDefaults(t *testing.T) {
	cfg, err := Load(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg, Defaults()) {
		t.Fatalf("got %+v, want the defaults", cfg)
	}
	if got := cfg.TaskNames(); !reflect.DeepEqual(got, []string{"build", "test", "vet"}) {
		t.Fatalf("task names %v", got)
	}
}

func TestLoadMergesOverDefaults(t *testing.T) {
	root := t.TempDir()
	text := `{
  "selections": {"integration": {"tags": ["integration"], "env": {"DB": "x"}, "preload": ["example.com/demo/calc"], "interpret": ["modernc.org/libc"]}},
  "tasks": {"lint": {"command": ["go", "vet", "./..."], "dir": "./sub/", "timeout": "5m"},
            "test": {"command": ["go", "test", "-short", "./..."]}}
}`
	if err := os.WriteFile(filepath.Join(root, FileName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.SelectionNames(); !reflect.DeepEqual(got, []string{"default", "integration"}) {
		t.Fatalf("selections %v", got)
	}
	sel, _ := cfg.Selection("integration")
	if sel.Env["DB"] != "x" || sel.Tags[0] != "integration" || sel.Preload[0] != "example.com/demo/calc" || !reflect.DeepEqual(sel.Interpret, []string{"modernc.org/libc"}) {
		t.Fatalf("selection %+v", sel)
	}
	lint, _ := cfg.Task("lint")
	want := Task{Name: "lint", Command: []string{"go", "vet", "./..."}, Dir: "sub", Timeout: 5 * time.Minute}
	if !reflect.DeepEqual(lint, want) {
		t.Fatalf("lint %+v, want %+v", lint, want)
	}
	if test, _ := cfg.Task("test"); test.Command[2] != "-short" {
		t.Fatalf("test not overridden: %+v", test)
	}
	if _, ok := cfg.Task("build"); !ok {
		t.Fatal("default build task lost")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string // substring of the error
	}{
		{"syntax missing comma", "{\n  \"tasks\": {}\n  \"selections\": {}\n}", ".trestle.json:3:3: invalid character '\"' after object key:value pair"},
		{"syntax bad literal", "{\"tasks\": tru}", ".trestle.json:1:14: invalid character"},
		{"type error command", "{\"tasks\": {\n \"x\": {\"command\": \"go build\"}}}", ".trestle.json:2:28: tasks.x.command: a JSON string is not valid here, want []string"},
		{"type error top", "[1]", ".trestle.json:1:1: the top level: a JSON array"},
		{"unknown top key", "{\n\"tasks\": {},\n  \"taks\": {}}", `.trestle.json:3:3: unknown key "taks"`},
		{"unknown nested key", "{\"selections\": {\"a\": {\"tag\": [\"x\"]}}}", `.trestle.json:1:23: unknown key "tag"`},
		{"bad timeout", `{"tasks": {"x": {"command": ["go"], "timeout": "5 minutes"}}}`, `.trestle.json: tasks.x: "timeout" "5 minutes" is not a positive duration`},
		{"dir escapes", `{"tasks": {"x": {"command": ["go"], "dir": "../other"}}}`, `.trestle.json: tasks.x: "dir" "../other" leaves the project`},
		{"absolute dir", `{"tasks": {"x": {"command": ["go"], "dir": "/etc"}}}`, `"dir" "/etc" leaves the project`},
		{"empty command", `{"tasks": {"x": {"command": []}}}`, `tasks.x: "command" is missing or empty`},
		{"trailing data", "{}\n{}", ".trestle.json:2:1: unexpected data after the top-level object"},
		{"empty file", "", ".trestle.json:1:1: the file is empty"},
		{"truncated", "{\"tasks\": {", ".trestle.json:1:11: unexpected end of the file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse(FileName, []byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to contain %q", err, tt.want)
			}
			if !reflect.DeepEqual(cfg, Defaults()) {
				t.Fatalf("a malformed file must give the defaults, got %+v", cfg)
			}
		})
	}
}

func TestPosition(t *testing.T) {
	data := []byte("ab\ncd\n")
	tests := []struct {
		name      string
		offset    int
		line, col int
	}{
		{"first byte", 1, 1, 1},
		{"second line", 5, 2, 2},
		{"zero", 0, 1, 1},
		{"past end", 100, 3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, col := position(data, tt.offset)
			if line != tt.line || col != tt.col {
				t.Fatalf("position(%d) = %d:%d, want %d:%d", tt.offset, line, col, tt.line, tt.col)
			}
		})
	}
}

func TestPathAt(t *testing.T) {
	text := `{"selections": {"a": {"tags": ["x", 3]}}, "tasks": {"t": {"command": "go"}}}`
	tests := []struct {
		name string
		at   string // the value whose end is the offset
		want string
	}{
		{"array element", "3", "selections.a.tags[1]"},
		{"map key included", `"go"`, "tasks.t.command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			offset := strings.Index(text, tt.at) + len(tt.at)
			if got := pathAt([]byte(text), offset); got != tt.want {
				t.Fatalf("pathAt = %q, want %q", got, tt.want)
			}
		})
	}
}
