package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestConfigOffersReviewOnlySettings: mcp-config gives, beside each
// client's attach command and marked optional, the client's own settings
// that leave change sets as the only way the agent writes: Claude Code's
// deny list as a settings.json that parses, Codex's read-only sandbox, and
// for Cursor a plain word that it has no such file.
func TestConfigOffersReviewOnlySettings(t *testing.T) {
	config := func(client string) string {
		var out, errOut bytes.Buffer
		if code := runConfig(&out, &errOut, client); code != 0 || errOut.Len() != 0 {
			t.Fatalf("mcp-config --client %s: exit %d, stderr %q", client, code, errOut.String())
		}
		return out.String()
	}

	claude := config("claude")
	var settings struct {
		Permissions struct {
			Deny []string `json:"deny"`
		} `json:"permissions"`
	}
	var found bool
	for _, line := range strings.Split(claude, "\n") {
		if strings.HasPrefix(line, `{"permissions"`) {
			if err := json.Unmarshal([]byte(line), &settings); err != nil {
				t.Fatalf("the settings line is not JSON: %v: %s", err, line)
			}
			found = true
		}
	}
	if !found || !slices.Equal(settings.Permissions.Deny, []string{"Edit", "Write", "MultiEdit", "NotebookEdit"}) {
		t.Fatalf("no deny list for Edit, Write, MultiEdit, NotebookEdit in:\n%s", claude)
	}
	attach, optional := strings.Index(claude, "claude mcp add trestle"), strings.Index(claude, "# Optional:")
	if attach < 0 || optional < attach || !strings.Contains(claude, ".claude/settings.json") {
		t.Fatalf("the optional settings do not follow the attach command:\n%s", claude)
	}

	codex := config("codex")
	if !strings.Contains(codex, "# Optional:") || !strings.Contains(codex, `sandbox_mode = "read-only"`) ||
		!strings.Contains(codex, "approval_policy") {
		t.Fatalf("codex:\n%s", codex)
	}
	// Uncommented, these keys would land in [mcp_servers.trestle]: they must be comments.
	for _, line := range strings.Split(codex, "\n") {
		if strings.HasPrefix(line, "sandbox_mode") || strings.HasPrefix(line, "approval_policy") {
			t.Fatalf("codex settings printed inside the [mcp_servers.trestle] table: %q", line)
		}
	}

	cursor := config("cursor")
	if !strings.Contains(cursor, "# Optional: Cursor has no settings file that turns off its own edit tools") {
		t.Fatalf("cursor:\n%s", cursor)
	}
}
