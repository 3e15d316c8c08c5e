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
	headless, _ := modeTools(t)
	got := toolsDoc(allTools(t), headless)
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

func toolsDoc(tools, headless map[string]server.ServerTool) string {
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
		"`none`; its `structuredContent.state` says the same. Success is `done`. Arguments are checked against each\n" +
		"tool's input schema: an unknown argument, a value of the wrong type or one outside an `enum` is a `problem`\n" +
		"that names the argument (`path must be a string`); a tool the server lacks is a -32602 error naming the\n" +
		"closest ones. A result's text carries what its structured content says that an agent acts on.\n\n" +
		"tools/list carries no output schemas (they were half its size, and no client shows them to a model);\n" +
		"each tool's structuredContent fields are listed below, and the full shapes are in\n" +
		"`mcpbridge/testdata/toolsnaps/<tool>.snap` under `structuredContent`.\n\n" +
		"Tools whose answer is a large text (trestle_read, trestle_search, trestle_output, trestle_package_api,\n" +
		"trestle_symbols, trestle_definition, trestle_references) send it once, as text, with no structuredContent\n" +
		"on success. Claude Code and VS Code pass a result's structuredContent to the model in place of its text\n" +
		"whenever it has one, and other clients pass only the text, so a payload in both is sent twice and read\n" +
		"once; in the text alone every client's model reads it, unescaped. trestle_read's first line says what the\n" +
		"structured content used to: `main.go lines 1-80 of 120, unsaved editor text, sha256 <hex>:`; the gopls\n" +
		"tools' lines start `path:line:column` (1-based), a definition's `(lines 27-44)`, and a cut answer says how\n" +
		"many were found and how to see more. The other tools answer with a short text and structuredContent that\n" +
		"carries the data.\n")
	for _, name := range names {
		tool := tools[name].Tool
		a := tool.Annotations
		modes := "window"
		h, inHeadless := headless[name]
		if inHeadless {
			modes = "window and headless"
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", name, tool.Description)
		if inHeadless && h.Tool.Description != tool.Description {
			fmt.Fprintf(&b, "Headless: %s\n\n", h.Tool.Description)
		}
		fmt.Fprintf(&b, "- served by: %s\n- read-only %v, destructive %v, idempotent %v, open-world %v\n",
			modes, *a.ReadOnlyHint, *a.DestructiveHint, *a.IdempotentHint, *a.OpenWorldHint)
		writeParams(&b, tool.RawInputSchema)
		writeResult(&b, name)
	}
	return b.String()
}

// writeResult lists the top-level fields of a tool's structured content,
// from the result schema Trestle keeps (tools/list does not carry it).
func writeResult(b *strings.Builder, name string) {
	rs, ok := resultSchemaOf(name)
	if !ok {
		b.WriteString("- structuredContent: none on success, the text is the whole answer (sent once); on failure `state` and `message`\n")
		return
	}
	names := make([]string, 0, len(rs.Properties))
	for n := range rs.Properties {
		if n != "message" {
			names = append(names, "`"+n+"`")
		}
	}
	sort.Strings(names)
	fmt.Fprintf(b, "- structuredContent: %s; on failure `state` and `message`\n", strings.Join(names, ", "))
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
