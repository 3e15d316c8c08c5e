package main

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"trestle/internal/testfix"
)

// TestAgentPaneTurnUnderXvfb is issue 26's hosted-agent turn through the
// real window under Xvfb, driven with real key presses: the person opens
// the Agent pane from the command palette, types the scripted ACP agent's
// command line and presses Enter to start it, types "work" in the prompt
// and sends it with Shift+Enter. The agent writes a.go through
// fs/write_text_file, b.go on disk and c.go from a shell, asks permission
// (allowed by --agent-policy allow), and tries every way into the real
// project. An attached MCP client then finds one pending change set with
// the three files, the project is byte for byte as it was, and the screen
// (saved in the test's temp folder) shows the turn. No process of the
// agent's outlives the window.
func TestAgentPaneTurnUnderXvfb(t *testing.T) {
	needXdotool(t)
	testfix.RequireBwrap(t)
	agentBin := testfix.ACPAgent(t)
	project := testfix.Project(t, map[string]string{
		"go.mod": "module example.com/agentpane\n\ngo 1.22\n",
		"p.go":   "package p\n\n// P is the project's own file.\nconst P = 0\n",
	})
	marker := "agent-pane-e2e-linger-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	// The agent inherits the window's environment: where its escapes aim,
	// and the marker of the process it leaves behind.
	t.Setenv("TRESTLE_TEST_PROJECT", project)
	t.Setenv("TRESTLE_TEST_MARKER", marker)
	t.Cleanup(func() { testfix.WaitNoProcess(t, time.Minute, marker) }) // runs after the window's own cleanup
	before := projectBytes(t, project)

	w := startWindowArgs(t, project, "--agent-policy", "allow")
	c := w.attach(t, project, "e2e-agent-pane")
	xdo := w.xdo(t)
	xdo("search", "--sync", "--onlyvisible", "--name", "^Trestle", "windowfocus", "--sync")

	// View › Agent Pane from the palette gives the command line the keyboard.
	xdo("key", "ctrl+shift+p")
	xdo("type", "--delay", "30", "Agent Pane")
	xdo("key", "Return")
	xdo("key", "ctrl+a")
	xdo("type", "--delay", "10", agentBin)
	xdo("key", "Return")
	// Ctrl+2 gives the shown pane (the Agent pane, starting) the keyboard:
	// now its prompt.
	xdo("key", "ctrl+2")
	xdo("type", "--delay", "30", "work")
	// Shift+Enter sends once the session is ready; before, the prompt
	// waits and the key does nothing, and after, the prompt is empty.
	sets := waitPendingSet(t, w, c, func() { xdo("key", "shift+Return") })
	if len(sets) != 1 {
		t.Fatalf("%d pending change sets, want 1: %v", len(sets), sets)
	}
	var paths []string
	set, _ := sets[0].(map[string]any)
	files, _ := set["files"].([]any)
	for _, f := range files {
		paths = append(paths, fmt.Sprint(f.(map[string]any)["path"]))
	}
	if want := []string{"a.go", "b.go", "c.go"}; !slices.Equal(paths, want) {
		t.Errorf("the change set holds %q, want %q", paths, want)
	}
	if after := projectBytes(t, project); !maps.Equal(before, after) {
		t.Errorf("the project changed on disk during the turn:\nbefore %q\nafter  %q", before, after)
	}

	shot := filepath.Join(t.TempDir(), "agent-pane-turn.png")
	if d := os.Getenv("TRESTLE_SHOTS"); d != "" { // keep it to look at
		shot = filepath.Join(d, "agent-pane-turn.png")
	}
	time.Sleep(time.Second) // let the pane's last rows paint; nothing is asserted on timing
	if out, err := exec.Command("import", "-display", w.display, "-window", "root", shot).CombinedOutput(); err != nil {
		t.Errorf("screenshot: %v\n%s", err, out)
	} else if img := loadImage(t, shot); img.Bounds().Dx() < 100 {
		t.Errorf("the screenshot %s is %v", shot, img.Bounds())
	}
	t.Logf("the Agent pane after the turn: %s", shot)
}

// waitPendingSet presses (a key) every second until the project has a
// pending change set, and returns the pending sets as trestle_change_sets
// lists them.
func waitPendingSet(t *testing.T, w *window, c *client.Client, press func()) []any {
	t.Helper()
	next := time.Now()
	type seen struct {
		sets   []any
		answer string
	}
	got := testfix.WaitFor(t, time.Minute, "a pending change set after the agent's turn", func() (seen, bool) {
		if time.Now().After(next) {
			press()
			next = time.Now().Add(time.Second)
		}
		res, sc := call(t, c, "trestle_change_sets", map[string]any{"state": "pending"})
		sets, _ := sc["change_sets"].([]any)
		select {
		case <-w.exited:
			t.Fatalf("the window exited:\n%s", w.stderr.String())
		default:
		}
		return seen{sets, resultText(res)}, len(sets) > 0
	}, testfix.Every(200*time.Millisecond))
	return got.sets
}

// projectBytes is every file under root with its bytes.
func projectBytes(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		files[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
