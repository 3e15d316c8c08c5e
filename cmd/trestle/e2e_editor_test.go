package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"trestle/internal/testfix"
)

// The editor in the real window under Xvfb, driven with xdotool on a copy
// of bbolt: typing into files under a pending proposal, switching tabs by
// a click on a header while the editor is scrolled, the find bar typed
// into at a person's pace; both files under the proposal take typing.
// Screenshots: editor-proposal-*, editor-tabs-*,
// editor-find.

// waitUnsaved waits until path's editor holds want, unsaved.
func waitUnsaved(t *testing.T, c *client.Client, path, want string) {
	t.Helper()
	testfix.WaitFor(t, 30*time.Second, "the typing in "+path+", unsaved", func() (string, bool) {
		res, _ := call(t, c, "trestle_read", map[string]any{"path": path})
		text, unsaved := readText(resultText(res))
		return resultText(res), strings.Contains(text, want) && unsaved
	}, toolPoll)
}

// waitActive waits until path's tab is the active one.
func waitActive(t *testing.T, c *client.Client, path string) map[string]any {
	t.Helper()
	return testfix.WaitFor(t, 30*time.Second, path+" as the active tab", func() (map[string]any, bool) {
		_, sc := call(t, c, "trestle_workbench", nil)
		return sc, sc["active"] == path
	}, toolPoll)
}

// openTab opens path at line through trestle_open, again while the
// window answers busy (a loaded machine).
func openTab(t *testing.T, c *client.Client, path string, line int) {
	t.Helper()
	testfix.WaitFor(t, time.Minute, "trestle_open "+path+" past busy", func() (string, bool) {
		res, sc := call(t, c, "trestle_open", map[string]any{"path": path, "line": line})
		if res.IsError && sc["state"] != "busy" {
			t.Fatalf("trestle_open %s: %s", path, resultText(res))
		}
		return resultText(res), !res.IsError
	}, toolPoll)
}

// Where the window draws the tab headers: the window sits at the top left
// of the bare Xvfb screen, its menu bar first; the tree takes a quarter of
// its width. A header is as wide as its title: "● db.go" starts at about
// 290 px and "tx.go" is centred near 408 px (screenshot editor-tabs-scrolled).
const firstTabX, secondTabX, tabY = 330, 408, 52

func TestEditorOnBboltE2E(t *testing.T) {
	needXdotool(t)
	project := testfix.CopyBbolt(t)
	w := startWindowArgs(t, project, "--agent-policy", "allow")
	c := w.attach(t, project, "e2e-editor")
	xdo := w.xdo(t)
	xdo("search", "--sync", "--onlyvisible", "--name", "^Trestle", "windowfocus", "--sync")

	// Files under a pending proposal: db.go and tx.go are not active as it comes.
	for _, f := range []string{"db.go", "tx.go", "bucket.go"} {
		openTab(t, c, f, 1)
	}
	res, _ := call(t, c, "trestle_change_set_propose", map[string]any{
		"title": "Name the results",
		"changes": []any{
			map[string]any{"action": "edit", "path": "db.go", "edits": []any{map[string]any{
				"old_text": "func (db *DB) Path() string {", "new_text": "func (db *DB) Path() (path string) {"}}},
			map[string]any{"action": "edit", "path": "tx.go", "edits": []any{map[string]any{
				"old_text": "func (tx *Tx) ID() int {", "new_text": "func (tx *Tx) ID() (id int) {"}}},
		},
	})
	if res.IsError {
		t.Fatalf("propose: %s", resultText(res))
	}
	time.Sleep(700 * time.Millisecond) // let the strips paint
	t.Logf("screenshot: %s", w.screenshot(t, "editor-proposal-strips"))
	xdo("mousemove", fmt.Sprint(firstTabX), fmt.Sprint(tabY), "click", "1") // the db.go tab
	waitActive(t, c, "db.go")
	time.Sleep(300 * time.Millisecond)
	t.Logf("screenshot: %s", w.screenshot(t, "editor-proposal-db"))
	xdo("key", "ctrl+Home")
	xdo("type", "--delay", "30", "// typed under a proposal")
	waitUnsaved(t, c, "db.go", "// typed under a proposal")
	t.Logf("screenshot: %s", w.screenshot(t, "editor-proposal-typed"))

	// The active editor scrolled down by the wheel; a click on another tab's header switches to it.
	openTab(t, c, "bucket.go", 1)
	xdo("mousemove", "700", "400")
	for range 15 {
		xdo("click", "5") // the wheel, one notch down
	}
	time.Sleep(300 * time.Millisecond)
	t.Logf("screenshot: %s", w.screenshot(t, "editor-tabs-scrolled"))
	xdo("mousemove", fmt.Sprint(secondTabX), fmt.Sprint(tabY), "click", "1") // the tx.go tab
	sc := waitActive(t, c, "tx.go")
	t.Logf("screenshot: %s", w.screenshot(t, "editor-tabs-switched"))
	if sel, _ := sc["selection"].(map[string]any); sel == nil || sel["start_line"] != float64(1) {
		t.Errorf("tx.go's caret after the switch: %v", sel)
	}
	// tx.go, the other file under the proposal, takes typing too.
	xdo("type", "--delay", "30", "// typed in tx.go ")
	waitUnsaved(t, c, "tx.go", "// typed in tx.go package bbolt")
	t.Logf("screenshot: %s", w.screenshot(t, "editor-proposal-tx-typed"))

	// The find bar takes every key typed at a person's pace.
	openTab(t, c, "db.go", 1)
	xdo("key", "ctrl+f")
	time.Sleep(300 * time.Millisecond)
	xdo("type", "--delay", "60", "Unlock")
	testfix.WaitFor(t, 30*time.Second, "Unlock selected after typing it into the find bar", func() (any, bool) {
		_, sc := call(t, c, "trestle_selection", nil)
		return sc["text"], strings.EqualFold(fmt.Sprint(sc["text"]), "Unlock") // find ignores case: the first match is in munlock
	}, toolPoll)
	t.Logf("screenshot: %s", w.screenshot(t, "editor-find"))
}
