package mcpbridge

import (
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"trestle/app/workbench"
)

// TestCallDetailsReadAsWritten: the Agents pane shows arguments as the
// agent wrote them (no \u003c for <), indented, and the result's text; both
// are bounded.
func TestCallDetailsReadAsWritten(t *testing.T) {
	args := map[string]any{"code": "if a < b && c > d { x() }"}
	if got := summarize(args); got != `{"code":"if a < b && c > d { x() }"}` {
		t.Errorf("summary = %s", got)
	}
	if got := indented(args); got != "{\n  \"code\": \"if a < b && c > d { x() }\"\n}" {
		t.Errorf("arguments = %s", got)
	}
	if got := indented(map[string]any{}); got != "" {
		t.Errorf("no arguments = %q, want empty", got)
	}
	big := indented(map[string]any{"code": strings.Repeat("é", workbench.MaxCallDetail)})
	if len(big) > workbench.MaxCallDetail+64 || !strings.Contains(big, "cut at 16 KiB") {
		t.Errorf("a huge argument gives %d bytes, ending %q", len(big), big[len(big)-30:])
	}
	res := mcp.NewToolResultText("2 (int)")
	if got := resultText(res, nil); got != "2 (int)" {
		t.Errorf("result = %q", got)
	}
	if got := resultText(nil, errors.New("boom")); got != "error: boom" {
		t.Errorf("error result = %q", got)
	}
}
