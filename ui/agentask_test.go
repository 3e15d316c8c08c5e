package ui

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"trestle/ui/agent"
)

// overlayButtons is the text of every button in the top overlay.
func overlayButtons(c fyne.Canvas) []string {
	var texts []string
	walkOverlay(c, func(o fyne.CanvasObject) {
		if b, ok := buttonOf(o); ok {
			texts = append(texts, b.Text)
		}
	})
	return texts
}

// unsafeRune is the first character of s that could forge what a screen
// shows (a control, format or bidi character other than those in keep).
func unsafeRune(s, keep string) (rune, bool) {
	for _, r := range s {
		if strings.ContainsRune(keep, r) {
			continue
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.In(r, unicode.Zl, unicode.Zp) {
			return r, true
		}
	}
	return 0, false
}

// TestAgentPaneHostileStringsStayPlainAndShort: an agent whose plan, tool
// call and permission request carry terminal escapes, newlines, bidi
// overrides and hundreds of characters in every string (option names and
// kinds, titles, statuses) gets a dialog whose buttons and labels show
// them escaped and cut short, no wider than the dialog, and a transcript
// with them escaped; the person's Reject still reaches it.
func TestAgentPaneHostileStringsStayPlainAndShort(t *testing.T) {
	a := startAgentPane(t)
	a.send("hostile")
	var buttons []string
	a.waitFor("the hostile permission dialog", func() bool {
		buttons = overlayButtons(a.w.win.Canvas())
		return len(buttons) == 2
	})
	labels, _ := a.shown()
	for _, s := range append(append([]string{}, buttons...), labels...) {
		if r, bad := unsafeRune(s, ""); bad {
			t.Errorf("the dialog shows %q raw in %q", r, s)
		}
		if n := utf8.RuneCountInString(s); n > 300 {
			t.Errorf("the dialog shows a %d-character line: %q", n, s)
		}
	}
	if !containsPart(buttons, `Allow\x1b[2J`) || !containsPart(labels, `ask title\x1b[2J`) {
		t.Errorf("the agent's strings are not shown escaped: buttons %q, labels %q", buttons, labels)
	}
	var min, room fyne.Size
	a.onMain(func() {
		min = a.w.win.Canvas().Overlays().Top().MinSize()
		room = askDialogSize(a.w.win.Canvas().Size())
	})
	if min.Width > room.Width {
		t.Errorf("the agent's strings widen the dialog to %v, more than its %v", min.Width, room.Width)
	}
	var reject string
	for _, b := range buttons {
		if strings.HasPrefix(b, "Reject") {
			reject = b
		}
	}
	a.onMain(func() { test.Tap(findButton(a.w.win.Canvas(), reject)) })
	a.waitFor("the turn's end", func() bool {
		return a.h.pane.State() == agent.Ready && strings.Contains(a.h.pane.Text(), "The turn ended")
	})
	text := a.transcript()
	if !strings.Contains(text, "permission: rejected") {
		t.Errorf("the agent did not hear it was rejected:\n%s", text)
	}
	if r, bad := unsafeRune(text, "\n\t"); bad {
		t.Errorf("the transcript shows %q raw:\n%q", r, text)
	}
	for _, want := range []string{`[pending\x1b[2J`, `tool title\x1b[2J`, `(edit\x1b[2J`} {
		if !strings.Contains(text, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, text)
		}
	}
}

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
