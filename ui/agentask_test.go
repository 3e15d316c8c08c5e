package ui

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestPermissionDetailShowsAllItCarries: the dialog's text holds the
// files, each diff in unified form, the terminal and the raw input (a
// command, say).
func TestPermissionDetailShowsAllItCarries(t *testing.T) {
	old := "package p\n\nconst A = 1\n"
	got := permissionDetail(sdk.ToolCallUpdate{
		ToolCallId: "c1",
		Locations:  []sdk.ToolCallLocation{{Path: "/w/p.go"}},
		Content: []sdk.ToolCallContent{
			{Diff: &sdk.ToolCallContentDiff{Path: "/w/p.go", OldText: &old, NewText: "package p\n\nconst A = 2\n"}},
			{Terminal: &sdk.ToolCallContentTerminal{TerminalId: "t1"}},
		},
		RawInput: map[string]any{"command": "rm -rf /"},
	})
	for _, want := range []string{"at /w/p.go", "diff /w/p.go", "-const A = 1", "+const A = 2", "terminal t1", `"command": "rm -rf /"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the detail lacks %q:\n%s", want, got)
		}
	}
}
