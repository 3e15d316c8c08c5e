package ui

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"fyne.io/fyne/v2/test"

	"trestle/app/changeset"
	"trestle/app/permission"
	"trestle/app/sandbox"
	"trestle/app/textbuf"
	"trestle/internal/testfix"
	"trestle/ui/agent"
)

// agentHarness is a window whose Agent pane hosts the scripted ACP agent,
// with one fake main goroutine for the pane, the permission dialog and the
// test's looks at them (Fyne's test driver runs fyne.Do inline, on the
// agent connection's goroutine).
type agentHarness struct {
	*askHarness
	h      *agentHost
	m      *changeset.Manager
	marker string
}

func startAgentPane(t *testing.T) *agentHarness {
	t.Helper()
	testfix.RequireBwrap(t)
	a := newAgentHarness(t)
	a.onMain(func() { test.Tap(a.h.pane.Start) })
	a.waitFor("the agent ready", func() bool { return a.h.pane.State() == agent.Ready })
	return a
}

// newAgentHarness is the window with the scripted agent's command line in
// the Agent pane, not started.
func newAgentHarness(t *testing.T) *agentHarness {
	t.Helper()
	bin := testfix.ACPAgent(t)
	w, m := newChangesWindow(t)
	startChanges(t, w, m)
	w.services.ChangeSets = m
	w.services.Gate = permission.NewGate(permission.PolicyAsk, nil)
	fake, run := fakeMain(t)
	w.main.setQueue(fake.enqueue)
	t.Cleanup(func() { w.main.setQueue(nil) })
	h := w.panes.agent
	h.do = fake.do
	marker := "agent-pane-linger-" + strconv.Itoa(time.Now().Nanosecond())
	h.env = []string{"TRESTLE_TEST_MARKER=" + marker, "TRESTLE_TEST_PROJECT=" + w.project.Root}
	h.mcp = func(s *sandbox.Stage) []sdk.McpServer { // as Options.AgentMCP
		return []sdk.McpServer{{Stdio: &sdk.McpServerStdio{Name: "trestle", Command: "trestle", Args: []string{"--mcp", s.Dir}, Env: []sdk.EnvVariable{}}}}
	}
	t.Cleanup(h.stopAndWait) // before the fake main goroutine stops
	a := &agentHarness{askHarness: &askHarness{t: t, w: w, run: run}, h: h, m: m, marker: marker}
	a.onMain(func() { h.pane.Command.SetText(bin) })
	return a
}

// transcript is the pane's transcript, read on the main goroutine.
func (a *agentHarness) transcript() string {
	var s string
	a.onMain(func() { s = a.h.pane.Text() })
	return s
}

// projectFiles is every file of the project with its content.
func projectFiles(t *testing.T, root string) map[string]string {
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

// TestAgentPaneTurnBecomesAChangeSet: a person starts the scripted agent in
// the Agent pane, types a prompt and taps Send; the transcript shows its
// messages, plan and tool calls, its permission request comes up in the
// window's dialog and is answered by a tap, and what it wrote (a.go through
// the protocol, b.go on disk, c.go from a shell) waits as one change set in
// the review while the project stays byte for byte as it was. Stop ends the
// session: no process left, the staging copy gone.
func TestAgentPaneTurnBecomesAChangeSet(t *testing.T) {
	a := startAgentPane(t)
	before := projectFiles(t, a.w.project.Root)
	stage := a.stageDir()
	a.onMain(func() {
		test.Type(a.h.pane.Prompt, "work")
		test.Tap(a.h.pane.Send)
	})
	allow := "Allow (allow_once)"
	a.waitFor("the permission dialog, armed", func() bool {
		b := findButton(a.w.win.Canvas(), allow)
		return b != nil && !b.Disabled()
	})
	labels, views := a.shown()
	if !containsPart(labels, "Delete go.mod") || findButton(a.w.win.Canvas(), "Reject (reject_once)") == nil {
		t.Errorf("the dialog shows %q, %q", labels, views)
	}
	a.onMain(func() { test.Tap(findButton(a.w.win.Canvas(), allow)) })
	a.waitFor("the turn's end and its change set", func() bool {
		return a.h.pane.State() == agent.Ready && strings.Contains(a.h.pane.Text(), "Change set ")
	})
	text := a.transcript()
	for _, want := range []string{"You: work", "writing three files", "Plan:", "write a.go, b.go and c.go",
		"Tool: Write a.go (edit) [completed]", "mcp server trestle: trestle --mcp " + stage, "permission: allowed", "The turn ended: end_turn.", "done"} {
		if !strings.Contains(text, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "WROTE") {
		t.Errorf("the agent wrote outside its copy:\n%s", text)
	}
	pending, err := a.m.List(changeset.StatePending)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 1 {
		t.Fatalf("%d pending change sets, want 1: %+v", len(pending), pending)
	}
	var paths []string
	for _, f := range pending[0].Files {
		paths = append(paths, f.Path)
	}
	if want := []string{"a.go", "b.go", "c.go"}; !slices.Equal(paths, want) {
		t.Errorf("the change set holds %q, want %q", paths, want)
	}
	a.waitFor("the change set in the review", func() bool { return a.w.ShowChangeSet(pending[0].ID) })
	if after := projectFiles(t, a.w.project.Root); !mapsEqual(before, after) {
		t.Errorf("the project changed on disk:\nbefore %q\nafter  %q", before, after)
	}

	a.onMain(func() { test.Tap(a.h.pane.Stop) })
	a.waitFor("the session's end", func() bool { return a.h.pane.State() == agent.Stopped })
	testfix.WaitNoProcess(t, 30*time.Second, a.marker)
	if _, err := os.Stat(stage); !os.IsNotExist(err) {
		t.Errorf("the staging copy %s is still there (%v)", stage, err)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// send types text into the pane's prompt box and taps Send.
func (a *agentHarness) send(text string) {
	a.onMain(func() {
		test.Type(a.h.pane.Prompt, text)
		test.Tap(a.h.pane.Send)
	})
}

// stageDir is the running session's staging copy.
func (a *agentHarness) stageDir() string {
	a.h.mu.Lock()
	defer a.h.mu.Unlock()
	return a.h.cur.stage.Dir
}

// TestAgentPaneDenyPolicyRejectsWithoutAsking: under the deny policy the
// agent's permission request shows no dialog and the agent hears it was
// rejected.
func TestAgentPaneDenyPolicyRejectsWithoutAsking(t *testing.T) {
	a := startAgentPane(t)
	a.w.services.Gate.SetPolicy(permission.PolicyDeny)
	a.send("ask")
	a.waitFor("the turn's end", func() bool {
		return a.h.pane.State() == agent.Ready && strings.Contains(a.h.pane.Text(), "The turn ended")
	})
	if text := a.transcript(); !strings.Contains(text, "permission: rejected") {
		t.Errorf("the agent did not hear it was rejected:\n%s", text)
	}
	var overlay bool
	a.onMain(func() { overlay = a.w.win.Canvas().Overlays().Top() != nil })
	if overlay {
		t.Error("a dialog was shown under the deny policy")
	}
}

// TestAgentPaneCancelThenWindowCloseEndsTheSession: Cancel ends a turn the
// agent would never end, and closing the window ends the session: the
// agent's processes, a setsid one included, are gone and so is the
// staging copy.
func TestAgentPaneCancelThenWindowCloseEndsTheSession(t *testing.T) {
	a := startAgentPane(t)
	stage := a.stageDir()
	a.send("hang")
	a.waitFor("the agent waiting", func() bool { return strings.Contains(a.h.pane.Text(), "waiting for cancel") })
	a.onMain(func() { test.Tap(a.h.pane.Cancel) })
	a.waitFor("the cancelled turn's end", func() bool {
		return a.h.pane.State() == agent.Ready && strings.Contains(a.h.pane.Text(), "The turn ended: cancelled.")
	})
	if len(testfix.Processes(a.marker)) == 0 {
		t.Fatal("the agent's lingering process never started: the test proves nothing")
	}
	a.w.Quitting() // what the window's OnClosed calls
	testfix.WaitNoProcess(t, 30*time.Second, a.marker)
	if _, err := os.Stat(stage); !os.IsNotExist(err) {
		t.Errorf("the staging copy %s is still there (%v)", stage, err)
	}
}

// TestAgentPaneOffersUnsandboxedWithoutBubblewrap: where bubblewrap cannot
// run, Start says so and offers the unsandboxed mode, stating what it
// allows; the person's tap starts the agent without the sandbox, still in
// its staging copy.
func TestAgentPaneOffersUnsandboxedWithoutBubblewrap(t *testing.T) {
	a := newAgentHarness(t)
	a.h.bwrap = filepath.Join(t.TempDir(), "no-bwrap")
	a.onMain(func() { test.Tap(a.h.pane.Start) })
	a.waitFor("the offer to run unsandboxed", func() bool { return findButton(a.w.win.Canvas(), "Run unsandboxed") != nil })
	labels, _ := a.shown()
	if !containsPart(labels, "cannot be sandboxed") || !containsPart(labels, "nothing stops its own tools or shell from writing the project") {
		t.Errorf("the offer says %q", labels)
	}
	a.onMain(func() { test.Tap(findButton(a.w.win.Canvas(), "Run unsandboxed")) })
	a.waitFor("the agent ready, unsandboxed", func() bool { return a.h.pane.State() == agent.Ready })
	if text := a.transcript(); !strings.Contains(text, "UNSANDBOXED") {
		t.Errorf("the transcript does not say the agent runs unsandboxed:\n%s", text)
	}
	a.onMain(func() { test.Tap(a.h.pane.Stop) })
	a.waitFor("the session's end", func() bool { return a.h.pane.State() == agent.Stopped })
}

// TestAgentPaneAgentReadsTheEditorsUnsavedText: fs/read_text_file of a
// file the agent has not changed serves the person's editor text, unsaved
// edits included.
func TestAgentPaneAgentReadsTheEditorsUnsavedText(t *testing.T) {
	testfix.RequireBwrap(t)
	a := newAgentHarness(t)
	if err := os.WriteFile(filepath.Join(a.w.project.Root, "p.go"), []byte("package p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a.onMain(func() { test.Tap(a.h.pane.Start) })
	a.waitFor("the agent ready", func() bool { return a.h.pane.State() == agent.Ready })
	if err := a.w.Open(context.Background(), resolved(t, a.w, "p.go"), 0); err != nil {
		t.Fatal(err)
	}
	a.waitFor("p.go's tab", func() bool { t := a.w.tabs.find("p.go"); return t != nil && t.view != nil })
	a.onMain(func() {
		e := a.w.tabs.find("p.go").view
		e.SetCaret(textbuf.Pos{})
		test.Type(e.Page(), "// unsaved\n")
	})
	a.send("read")
	a.waitFor("the turn's end", func() bool {
		return a.h.pane.State() == agent.Ready && strings.Contains(a.h.pane.Text(), "The turn ended")
	})
	if text := a.transcript(); !strings.Contains(text, "read: // unsaved\npackage p") {
		t.Errorf("the agent did not read the editor's text:\n%s", text)
	}
}

// TestAgentPaneStopEndsAStartThatHangs: an agent that never answers
// initialize (npx still downloading, say) is ended by Stop, leaving no
// process behind.
func TestAgentPaneStopEndsAStartThatHangs(t *testing.T) {
	testfix.RequireBwrap(t)
	a := newAgentHarness(t)
	marker := "agent-pane-hang-" + strconv.Itoa(time.Now().Nanosecond())
	a.onMain(func() {
		a.h.pane.Command.SetText("sleep 600; : " + marker)
		test.Tap(a.h.pane.Start)
	})
	// The staging copy, its git steps and bwrap take a while on a loaded
	// machine; a start that failed instead is said with the transcript.
	var stopped bool
	testfix.Wait(t, time.Minute, "the agent process", func() bool {
		a.onMain(func() { stopped = a.h.pane.State() == agent.Stopped })
		return stopped || len(testfix.Processes(marker)) > 0
	})
	if stopped {
		t.Fatalf("the agent stopped before it ran:\n%s", a.transcript())
	}
	a.onMain(func() { test.Tap(a.h.pane.Stop) })
	a.waitFor("the start given up", func() bool { return a.h.pane.State() == agent.Stopped })
	testfix.WaitNoProcess(t, 30*time.Second, marker)
	if text := a.transcript(); !strings.Contains(text, "The agent did not start") {
		t.Errorf("the transcript does not say the agent did not start:\n%s", text)
	}
}

// TestAgentPaneRejectTappedIsReportedToTheAgent: the person's Reject in
// the permission dialog reaches the agent, and the dialog goes away.
func TestAgentPaneRejectTappedIsReportedToTheAgent(t *testing.T) {
	a := startAgentPane(t)
	a.send("ask")
	reject := "Reject (reject_once)"
	a.waitFor("the permission dialog", func() bool { return findButton(a.w.win.Canvas(), reject) != nil })
	a.onMain(func() { test.Tap(findButton(a.w.win.Canvas(), reject)) })
	a.waitFor("the turn's end", func() bool {
		return a.h.pane.State() == agent.Ready && strings.Contains(a.h.pane.Text(), "The turn ended")
	})
	if text := a.transcript(); !strings.Contains(text, "permission: rejected") {
		t.Errorf("the agent did not hear it was rejected:\n%s", text)
	}
	var overlay bool
	a.onMain(func() { overlay = a.w.win.Canvas().Overlays().Top() != nil })
	if overlay {
		t.Error("the dialog is still shown after Reject")
	}
}
