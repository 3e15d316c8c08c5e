package mcpbridge

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"
)

// TestToolsDoc keeps docs/tools.md equal to what the tool definitions say;
// UPDATE_TOOLSNAPS=true go test ./mcpbridge/... rewrites it.
func TestToolsDoc(t *testing.T) {
	got := toolsDoc(allTools(t), headlessNames(t))
	path := filepath.Join("..", "docs", "tools.md")
	if os.Getenv("UPDATE_TOOLSNAPS") == "true" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil || string(want) != got {
		t.Fatalf("docs/tools.md is out of date; run UPDATE_TOOLSNAPS=true go test ./mcpbridge/...")
	}
}

// headlessNames are the tools `trestle --mcp` serves.
func headlessNames(t *testing.T) map[string]bool {
	all := allTools(t)
	names := map[string]bool{}
	for _, name := range []string{"trestle_files", "trestle_read", "trestle_search", "trestle_eval", "trestle_run",
		"trestle_change_set_propose", "trestle_change_set",
		"trestle_symbols", "trestle_definition", "trestle_references", "trestle_package_api", "trestle_rename"} {
		if _, ok := all[name]; !ok {
			t.Fatalf("headless tool %s is not defined", name)
		}
		names[name] = true
	}
	return names
}

func toolsDoc(tools map[string]server.ServerTool, headless map[string]bool) string {
	names := make([]string, 0, len(tools))
	for name := range tools {
		if name != "trestle_debug_stall" { // a test hook, not part of the surface
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("# Trestle's MCP tools\n\nGenerated from the tool definitions by `UPDATE_TOOLSNAPS=true go test ./mcpbridge/...`;\n" +
		"a test keeps it up to date. `trestle --mcp-attach` serves every tool; `trestle --mcp` (headless) the ones\n" +
		"marked so. A failed call has `isError` and text starting with its state: `refused`, `busy`, `problem` or\n" +
		"`none`; its `structuredContent.state` says the same. Success is `done`.\n")
	for _, name := range names {
		tool := tools[name].Tool
		a := tool.Annotations
		modes := "window"
		if headless[name] {
			modes = "window and headless"
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n- served by: %s\n- read-only %v, destructive %v, idempotent %v, open-world %v\n",
			name, tool.Description, modes, *a.ReadOnlyHint, *a.DestructiveHint, *a.IdempotentHint, *a.OpenWorldHint)
		writeParams(&b, tool.RawInputSchema)
	}
	return b.String()
}

// writeParams lists a tool's arguments from its JSON schema.
func writeParams(b *strings.Builder, raw json.RawMessage) {
	var schema struct {
		Properties map[string]struct {
			Type        any    `json:"type"`
			Description string `json:"description"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(raw, &schema) != nil || len(schema.Properties) == 0 {
		b.WriteString("- arguments: none\n")
		return
	}
	required := map[string]bool{}
	for _, r := range schema.Required {
		required[r] = true
	}
	names := make([]string, 0, len(schema.Properties))
	for n := range schema.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	b.WriteString("- arguments:\n")
	for _, n := range names {
		p := schema.Properties[n]
		req := ""
		if required[n] {
			req = ", required"
		}
		fmt.Fprintf(b, "  - `%s` (%s%s): %s\n", n, typeName(p.Type), req, p.Description)
	}
}

// typeName renders a JSON schema type: "string", or "array" for ["null","array"].
func typeName(t any) string {
	list, ok := t.([]any)
	if !ok {
		return fmt.Sprint(t)
	}
	var names []string
	for _, x := range list {
		if x != "null" {
			names = append(names, fmt.Sprint(x))
		}
	}
	return strings.Join(names, "|")
}
