package main

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"trestle/internal/testfix"
)

// Issue 22's keyboard in the real window on a copy of go.etcd.io/bbolt,
// typed with xdotool under Xvfb as a person types: Ctrl+S formats through
// gopls (the File menu's shortcut runs before the editor sees the key);
// F2's rename dialog owns the keyboard (Ctrl+A, Ctrl+X act on its field,
// not on db.go behind it; Enter renames); after Go to File, typing lands
// in the opened editor, not in the search field that had the keyboard.

// TestKeysOnBbolt: issue 22's format on save, F2 with Ctrl+A/Ctrl+X and
// focus after Go to File, through real key presses.
func TestKeysOnBbolt(t *testing.T) {
	needGoplsAndXdotool(t)
	offline(t)
	project := testfix.CopyBbolt(t)
	w := startWindow(t, project)
	c := w.attach(t, project, "e2e-keys")
	// gopls has loaded bbolt once it answers a question about it.
	if res, _ := callWait(t, c, "trestle_references", map[string]any{"path": "tx.go", "symbol": "(*Tx).Commit"}); res.IsError {
		t.Fatalf("trestle_references: %s", resultText(res))
	}
	xdo := w.xdo(t)
	xdo("search", "--sync", "--onlyvisible", "--name", "^Trestle", "windowfocus", "--sync")

	// Format on save: a badly spaced line, then Ctrl+S.
	line := lineOf(t, filepath.Join(project, "db.go"), "t, err := db.Begin(true)")
	if res, _ := call(t, c, "trestle_open", map[string]any{"path": "db.go", "line": line}); res.IsError {
		t.Fatalf("trestle_open: %s", resultText(res))
	}
	xdo("key", "End", "Return")
	xdo("type", "--delay", "30", "_    =    len(t.root.buckets)")
	waitRead(t, c, "db.go", line+1, "the typed line", func(s string) bool { return strings.Contains(s, "_    =    len(") })
	// gopls has the typed text once it answers about it: the format then
	// comes well within its bound, even on a busy machine.
	if res, _ := callWait(t, c, "trestle_definition", map[string]any{"path": "db.go", "line": line + 1, "column": 12}); res.IsError {
		t.Logf("trestle_definition: %s", resultText(res))
	}
	xdo("key", "ctrl+s")
	time.Sleep(time.Second) // the status bar says what the save did
	w.screenshot(t, "keys-saved")
	testfix.WaitFor(t, time.Minute, fmt.Sprintf("db.go written formatted by Ctrl+S (screenshot keys-formatted); line %d on disk", line+1), func() (string, bool) {
		b, _ := os.ReadFile(filepath.Join(project, "db.go"))
		return lineAt(string(b), line+1), strings.Contains(string(b), "\n\t_ = len(t.root.buckets)\n")
	}, testfix.Every(200*time.Millisecond))
	w.screenshot(t, "keys-formatted")

	// Go to File with the keyboard in the search field: typing then goes to tx.go.
	xdo("key", "ctrl+shift+f")
	time.Sleep(500 * time.Millisecond) // let the frame paint
	base := w.screenshot(t, "keys-before-go-to-file")
	xdo("key", "ctrl+p")
	waitChanged(t, w, base, "keys-go-to-file-open", image.Rect(300, 30, 1000, 300), "the Go to File finder")
	xdo("type", "--delay", "30", "tx.go")
	xdo("key", "Return")
	waitActiveTab(t, w, c, "tx.go")
	xdo("type", "--delay", "30", "// typed ")
	waitRead(t, c, "tx.go", 1, "the typed text at the top of tx.go", func(s string) bool { return strings.HasPrefix(s, "// typed package") })
	w.screenshot(t, "keys-go-to-file")
	xdo("key", "ctrl+z") // leave tx.go as it was; it is not saved either way
	// The key reaches the window's loop after this returns: until tx.go
	// shows the undo, an agent's trestle_open of db.go may come first and
	// the undo land there (seen once in a cold CI run: it undid the format).
	waitRead(t, c, "tx.go", 1, "tx.go's first line after Ctrl+Z", func(s string) bool { return strings.HasPrefix(s, "package") })

	// F2 on Path in db.go; Ctrl+A, Ctrl+X go to the rename field.
	decl := lineOf(t, filepath.Join(project, "db.go"), "func (db *DB) Path() string {")
	if res, _ := call(t, c, "trestle_open", map[string]any{"path": "db.go", "line": decl}); res.IsError {
		t.Fatalf("trestle_open: %s", resultText(res))
	}
	xdo("key", "Home")
	for range len("func (db *DB) P") {
		xdo("key", "Right")
	}
	before, _ := os.ReadFile(filepath.Join(project, "db.go"))
	time.Sleep(500 * time.Millisecond) // let the frame paint
	base = w.screenshot(t, "keys-before-rename")
	xdo("key", "F2")
	waitChanged(t, w, base, "keys-rename-dialog", image.Rect(300, 200, 1000, 500), "the rename dialog")
	xdo("key", "ctrl+a")
	xdo("key", "ctrl+x")
	time.Sleep(300 * time.Millisecond)
	w.screenshot(t, "keys-rename-cut")
	if text := readAll(t, c, "db.go"); text != string(before) {
		t.Fatalf("Ctrl+A, Ctrl+X in the rename dialog changed db.go behind it (%d bytes, %d on disk)", len(text), len(before))
	}
	xdo("type", "--delay", "30", "FilePath")
	xdo("key", "Return")
	waitRead(t, c, "db.go", decl, "the rename", func(s string) bool { return strings.Contains(s, "func (db *DB) FilePath() string {") })
	w.screenshot(t, "keys-renamed")

	// The bell's list opens above the bell, at the bottom right.
	xdo("mousemove", "1075", "698", "click", "1")
	time.Sleep(time.Second)
	w.screenshot(t, "keys-bell")
	xdo("key", "Escape")
}

// waitRead waits until line (1-based) of path as the window shows it
// satisfies ok.
func waitRead(t *testing.T, c *client.Client, path string, line int, what string, ok func(string) bool) {
	t.Helper()
	testfix.WaitFor(t, time.Minute, fmt.Sprintf("the %s at %s:%d", what, path, line), func() (string, bool) {
		res, _ := call(t, c, "trestle_read", map[string]any{"path": path, "start_line": line, "end_line": line})
		text, _ := readText(resultText(res))
		return fmt.Sprintf("%q", text), ok(text)
	}, toolPoll)
}

// readAll is path's whole text as the window shows it.
func readAll(t *testing.T, c *client.Client, path string) string {
	t.Helper()
	res, _ := call(t, c, "trestle_read", map[string]any{"path": path})
	text, _ := readText(resultText(res))
	if res.IsError {
		t.Fatalf("trestle_read %s: %s", path, resultText(res))
	}
	return text
}

// waitActive waits until the active tab is path.
func waitActiveTab(t *testing.T, w *window, c *client.Client, path string) {
	t.Helper()
	testfix.WaitFor(t, time.Minute, path+" as the active tab", func() (any, bool) {
		_, sc := call(t, c, "trestle_workbench", nil)
		return sc["active"], sc["active"] == path
	}, toolPoll)
}

// lineAt is line n (1-based) of s.
func lineAt(s string, n int) string {
	lines := strings.Split(s, "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}
