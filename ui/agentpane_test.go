package ui

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/acp"
	"trestle/app/changeset"
	"trestle/app/permission"
	"trestle/app/sandbox"
	"trestle/app/store"
	"trestle/app/textbuf"
	"trestle/app/watch"
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
	t.Cleanup(func() {
		// After what the sessions' ends queued has run, the window drops
		// whatever comes later (an edit's debounce timer): with Fyne's
		// queue back, it would run inline beside the fake main goroutine.
		closed := make(chan struct{})
		run <- func() { w.main.close(); close(closed) }
		<-closed
		w.main.setQueue(nil)
	})
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
	a.waitFor("the change set in the review", func() bool { return a.w.review.showSet(pending[0].ID) })
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

// TestAgentPaneBatchesAStreamedMessage: the scripted agent streams a
// message in a thousand chunks, and then in two thousand, a chunk a
// millisecond as a model streams its tokens; the pane shows each whole,
// in order, before its turn's end, while the chunks reach the main
// goroutine in batches. With the batch's timer held, the turn's end alone
// hands the whole message over; with it running, the main-thread calls
// are far fewer than the chunks (one a chunk before the batching).
func TestAgentPaneBatchesAStreamedMessage(t *testing.T) {
	testfix.RequireBwrap(t)
	a := newAgentHarness(t)
	var calls atomic.Int64
	var hold atomic.Bool
	do := a.h.do
	a.h.do = func(fn func()) { calls.Add(1); do(fn) }
	a.h.stream.after = func(d time.Duration, fn func()) {
		if !hold.Load() {
			time.AfterFunc(d, fn)
		}
	}
	a.onMain(func() { test.Tap(a.h.pane.Start) })
	a.waitFor("the agent ready", func() bool { return a.h.pane.State() == agent.Ready })
	turn := func(chunks, ended int) (made int64) {
		t.Helper()
		var msg strings.Builder
		for i := range chunks {
			sep := " "
			if i%10 == 9 {
				sep = "\n"
			}
			fmt.Fprintf(&msg, "c%04d%s", i, sep)
		}
		before := calls.Load()
		a.send(fmt.Sprintf("stream %d", chunks))
		a.waitFor("the turn's end", func() bool {
			return a.h.pane.State() == agent.Ready && strings.Count(a.h.pane.Text(), "The turn ended") == ended
		})
		made = calls.Load() - before
		want := fmt.Sprintf("You: stream %d\n%s\n— The turn ended: end_turn.", chunks, msg.String())
		if text := a.transcript(); !strings.Contains(text, want) {
			t.Errorf("the transcript does not hold the whole message of %d chunks, in order, before the turn's end:\n%s", chunks, text)
		}
		return made
	}
	hold.Store(true)
	if made := turn(1000, 1); made > 10 {
		t.Errorf("with the timer held, 1000 chunks took %d main-thread calls: more than the turn's end", made)
	}
	hold.Store(false)
	const chunks = 2000
	made := turn(chunks, 2)
	if made > chunks/4 {
		t.Errorf("%d chunks took %d main-thread calls: they are not batched", chunks, made)
	}
	t.Logf("%d chunks, %d main-thread calls", chunks, made)
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

// TestAgentPaneModesAndModels: the modes and models the agent offers in
// session/new are the pane's Mode and Model choices; the person's choice
// reaches the agent (session/set_mode, session/set_model), and the mode
// the agent switches to itself shows in the choice.
func TestAgentPaneModesAndModels(t *testing.T) {
	a := startAgentPane(t)
	var modes, models []string
	var mode, model string
	a.onMain(func() {
		p := a.h.pane
		modes, models, mode, model = p.Mode.Options, p.Model.Options, p.Mode.Selected, p.Model.Selected
	})
	if !slices.Equal(modes, []string{"Ask", "Code"}) || mode != "Ask" || !slices.Equal(models, []string{"Fast model", "Smart model"}) || model != "Fast model" {
		t.Fatalf("the pane offers modes %q (%q), models %q (%q)", modes, mode, models, model)
	}
	a.onMain(func() {
		a.h.pane.Mode.SetSelected("Code")
		a.h.pane.Model.SetSelected("Smart model")
	})
	a.waitFor("both choices confirmed", func() bool {
		text := a.h.pane.Text()
		return strings.Contains(text, "with the mode code.") && strings.Contains(text, "with the model smart.")
	})
	a.send("which")
	a.waitFor("the turn's end", func() bool {
		return a.h.pane.State() == agent.Ready && strings.Contains(a.h.pane.Text(), "The turn ended")
	})
	if text := a.transcript(); !strings.Contains(text, "mode: code model: smart") {
		t.Errorf("the agent did not get the choices:\n%s", text)
	}
	a.waitFor("the agent's own switch back to Ask", func() bool { return a.h.pane.Mode.Selected == "Ask" })
}

// TestAgentPaneShowsTerminalsAndKillsTheirProcesses: a command the agent
// runs through terminal/* shows in the pane with its command line, its
// output (stdout and stderr) and how it ended; killing the terminal takes
// down what the command left behind, a process of its own session
// included, while the session goes on.
func TestAgentPaneShowsTerminalsAndKillsTheirProcesses(t *testing.T) {
	a := startAgentPane(t)
	a.send("term")
	a.waitFor("the turn's end", func() bool {
		return a.h.pane.State() == agent.Ready && strings.Contains(a.h.pane.Text(), "The turn ended")
	})
	text := a.transcript()
	for _, want := range []string{"Terminal: $ sh -c echo out-line;", "[killed by ", "  out-line", "  err-line", "terminal killed: "} {
		if !strings.Contains(text, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, text)
		}
	}
	testfix.WaitNoProcess(t, 30*time.Second, a.marker+"-term")
	var s agent.State
	a.onMain(func() { s = a.h.pane.State() })
	if s != agent.Ready {
		t.Errorf("the session is %v after the terminal was killed, want ready", s)
	}
}

// TestAgentPaneCopyFollowsThePersonsSaves: while a session runs, a file
// the person saves (Ctrl+S in the editor), once the watcher sees it, reaches the agent's staging
// copy; one the agent has changed keeps the agent's version there, and
// the pane says so.
func TestAgentPaneCopyFollowsThePersonsSaves(t *testing.T) {
	a := startAgentPane(t)
	stage := a.stageDir()
	a.send("edit")
	a.waitFor("the agent's edit", func() bool {
		return a.h.pane.State() == agent.Ready && strings.Contains(a.h.pane.Text(), "The turn ended")
	})
	save := func(rel, typed string) {
		t.Helper()
		if err := a.w.Open(context.Background(), resolved(t, a.w, rel), 0); err != nil {
			t.Fatal(err)
		}
		a.waitFor(rel+"'s tab", func() bool { t := a.w.tabs.find(rel); return t != nil && t.view != nil })
		a.onMain(func() {
			e := a.w.tabs.find(rel).view
			e.SetCaret(textbuf.Pos{})
			test.Type(e.Page(), typed)
			pressShortcut(a.w.win, ctrl(fyne.KeyS, false))
		})
		// The save ends with a fyne.Do that the test driver runs inline on
		// the save's goroutine: wait for it before the fake main goroutine
		// runs anything more.
		a.w.tabs.saving.Wait()
		testfix.Wait(t, 30*time.Second, rel+" saved", func() bool {
			data, _ := os.ReadFile(filepath.Join(a.w.project.Root, rel))
			return strings.HasPrefix(string(data), typed)
		})
		// What the window's watcher hands on (filesChanged), on a goroutine
		// of its own: the real watcher would refresh the file tree through
		// fyne.Do, which the test driver runs inline, beside the fake main
		// goroutine.
		go a.h.sawFiles([]watch.Event{{Path: rel, Op: watch.Changed}})
	}
	save("main.go", "// mine\n")
	testfix.Wait(t, 30*time.Second, "main.go in the staging copy", func() bool {
		data, _ := os.ReadFile(filepath.Join(stage, "main.go"))
		return strings.HasPrefix(string(data), "// mine\n")
	})
	save("lib/lib.go", "// mine too\n")
	a.waitFor("the pane's word on lib/lib.go", func() bool {
		return strings.Contains(a.h.pane.Text(), "You changed lib/lib.go, which the agent has changed too")
	})
	if data, _ := os.ReadFile(filepath.Join(stage, "lib", "lib.go")); string(data) != "package lib\n\n// the agent's\n" {
		t.Errorf("the staging copy's lib/lib.go is %q, want the agent's", data)
	}
}

// TestAgentPaneSeveralSessions: New session opens a second Agent pane
// whose session has its own agent, staging copy and transcript beside the
// first; closing the window ends both.
func TestAgentPaneSeveralSessions(t *testing.T) {
	a := startAgentPane(t)
	a.onMain(func() { test.Tap(a.h.pane.New) })
	var second *agentHost
	a.waitFor("the second pane, shown", func() bool {
		hosts := a.h.group.hosts()
		if len(hosts) != 2 {
			return false
		}
		second = hosts[1]
		return a.w.panes.tabs.Selected() == a.w.panes.item(second) && a.w.panes.item(second).Text == "Agent 2"
	})
	a.onMain(func() { test.Tap(second.pane.Start) })
	a.waitFor("the second agent ready", func() bool { return second.pane.State() == agent.Ready })
	first, other := a.stageDir(), func() string { second.mu.Lock(); defer second.mu.Unlock(); return second.cur.stage.Dir }()
	if first == other {
		t.Fatalf("both sessions work in %s", first)
	}
	a.onMain(func() {
		test.Type(second.pane.Prompt, "edit")
		test.Tap(second.pane.Send)
	})
	a.send("which")
	a.waitFor("both turns' ends", func() bool {
		return strings.Contains(a.h.pane.Text(), "The turn ended") && strings.Contains(second.pane.Text(), "The turn ended")
	})
	var one, two string
	a.onMain(func() { one, two = a.h.pane.Text(), second.pane.Text() })
	if !strings.Contains(one, "mode: ask") || strings.Contains(one, "edit: wrote") {
		t.Errorf("the first transcript:\n%s", one)
	}
	if !strings.Contains(two, "edit: wrote lib/lib.go") || !strings.Contains(two, "Change set ") || strings.Contains(two, "mode: ask") {
		t.Errorf("the second transcript:\n%s", two)
	}
	a.w.Quitting()
	for _, dir := range []string{first, other} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("the staging copy %s is still there (%v)", dir, err)
		}
	}
}

// TestAgentPaneResumesAStoredSession: a session is kept in the store with
// its transcript; once it has ended the pane lists it, and Resume starts
// the agent in a new staging copy and resumes the session there
// (session/load): the agent replays its history and takes the next prompt.
func TestAgentPaneResumesAStoredSession(t *testing.T) {
	testfix.RequireBwrap(t)
	a := newAgentHarness(t)
	st, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	a.w.actions.Store = st
	a.onMain(func() { test.Tap(a.h.pane.Start) })
	a.waitFor("the agent ready", func() bool { return a.h.pane.State() == agent.Ready })
	a.send("which")
	a.waitFor("the turn's end", func() bool { return strings.Contains(a.h.pane.Text(), "The turn ended") })
	a.onMain(func() { test.Tap(a.h.pane.Stop) })
	a.waitFor("the session listed", func() bool {
		return a.h.pane.State() == agent.Stopped && len(a.h.pane.Earlier.Options) == 1
	})
	var listed string
	a.onMain(func() {
		listed = a.h.pane.Earlier.Options[0]
		a.h.pane.Earlier.SetSelected(listed)
		test.Tap(a.h.pane.Resume)
	})
	if !strings.Contains(listed, "scripted-agent") || !strings.Contains(listed, "which") {
		t.Errorf("the pane lists %q", listed)
	}
	a.waitFor("the resumed session ready", func() bool { return a.h.pane.State() == agent.Ready })
	a.send("which")
	a.waitFor("the resumed turn's end", func() bool { return strings.Count(a.h.pane.Text(), "The turn ended") == 2 })
	text := a.transcript()
	for _, want := range []string{"You: an earlier prompt", "resumed scripted-1"} {
		if !strings.Contains(text, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, text)
		}
	}
	testfix.Wait(t, 30*time.Second, "the resumed session stored", func() bool {
		saved, err := acp.SavedSessions(st, a.w.project.Root)
		return err == nil && len(saved) == 1 && strings.Count(saved[0].Transcript, "mode: ask") == 2 && saved[0].SessionID == "scripted-1"
	})
}

// TestAgentPaneOffersToInstallAMissingAgent: Start on Gemini CLI when
// gemini is not on PATH offers to install it with npm; the person's
// Install runs the installer (here a stand-in npm that puts a gemini
// made of the scripted agent on PATH), its output shows in the pane, and
// the agent then starts.
func TestAgentPaneOffersToInstallAMissingAgent(t *testing.T) {
	testfix.RequireBwrap(t)
	a := newAgentHarness(t)
	bin := t.TempDir()
	var keep []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "gemini")); err != nil {
			keep = append(keep, dir)
		}
	}
	t.Setenv("PATH", strings.Join(append([]string{bin}, keep...), string(filepath.ListSeparator)))
	testfix.WriteFiles(t, bin, map[string]string{"npm": "#!/bin/sh\necho \"installing $*\"\n" +
		"printf '#!/bin/sh\\nexec %s \"$@\"\\n' '" + testfix.ACPAgent(t) + "' > '" + bin + "/gemini'\nchmod +x '" + bin + "/gemini'\necho added 1 package\n"})
	if err := os.Chmod(filepath.Join(bin, "npm"), 0o755); err != nil {
		t.Fatal(err)
	}
	a.onMain(func() {
		a.h.pane.Agent.SetSelected("Gemini CLI")
		test.Tap(a.h.pane.Start)
	})
	a.waitFor("the offer to install", func() bool { return findButton(a.w.win.Canvas(), "Install") != nil })
	labels, _ := a.shown()
	if !containsPart(labels, "npm install -g @google/gemini-cli") {
		t.Errorf("the offer says %q", labels)
	}
	a.onMain(func() { test.Tap(findButton(a.w.win.Canvas(), "Install")) })
	a.waitFor("the installed agent ready", func() bool { return a.h.pane.State() == agent.Ready })
	text := a.transcript()
	for _, want := range []string{"Terminal: $ npm install -g @google/gemini-cli [exit 0]", "installing install -g @google/gemini-cli", "added 1 package", "scripted-agent works in a sandboxed copy"} {
		if !strings.Contains(text, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, text)
		}
	}
}

// TestAgentPaneKeepsThePersonsOwnAgents: Agents… takes the person's own
// agents (Name = command line); they are kept in the store, offered in
// the Agent choice (and in a new session's pane), and start as the known
// ones do.
func TestAgentPaneKeepsThePersonsOwnAgents(t *testing.T) {
	testfix.RequireBwrap(t)
	a := newAgentHarness(t)
	st, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	a.w.actions.Store = st
	bin := testfix.ACPAgent(t)
	a.onMain(func() { test.Tap(a.h.pane.Agents) })
	var entry *widget.Entry
	a.waitFor("the agents dialog", func() bool {
		walkOverlay(a.w.win.Canvas(), func(o fyne.CanvasObject) {
			if e, ok := o.(*widget.Entry); ok && e.MultiLine {
				entry = e
			}
		})
		return entry != nil
	})
	a.onMain(func() {
		test.Type(entry, "Scripted = "+bin+"\nno equals sign")
		test.Tap(findButton(a.w.win.Canvas(), "Save"))
	})
	testfix.Wait(t, 30*time.Second, "the agent kept", func() bool {
		own, err := acp.SavedAgents(st)
		return err == nil && len(own) == 1 && own[0] == acp.AgentEntry{Name: "Scripted", Command: bin}
	})
	var options []string
	a.onMain(func() {
		options = a.h.pane.Agent.Options
		a.h.pane.Command.SetText("")
		a.h.pane.Agent.SetSelected("Scripted")
	})
	if !slices.Equal(options, []string{"Claude Code", "Codex", "Gemini CLI", "Scripted", agent.Custom}) {
		t.Errorf("the Agent choice offers %q", options)
	}
	if text := a.transcript(); !strings.Contains(text, "Not an agent (write Name = command line): line 2") {
		t.Errorf("the pane does not name the line it could not read:\n%s", text)
	}
	a.onMain(func() { test.Tap(a.h.pane.Start) })
	a.waitFor("the person's agent ready", func() bool { return a.h.pane.State() == agent.Ready })
	a.onMain(func() { test.Tap(a.h.pane.New) })
	a.waitFor("the new pane offering it", func() bool {
		hosts := a.h.group.hosts()
		return len(hosts) == 2 && slices.Contains(hosts[1].pane.Agent.Options, "Scripted")
	})
}

// TestSettingsEditsTheAgentsThePaneOffers (issue 26): Settings (opened
// with its shortcut, Ctrl+,) lists the agents and its Edit agents… opens
// the one editor the Agent pane's Agents… opens; an agent written there
// is kept in the store and offered in the Agent pane.
func TestSettingsEditsTheAgentsThePaneOffers(t *testing.T) {
	a := newAgentHarness(t)
	st, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	a.onMain(func() {
		a.w.installActions(Actions{Store: st}) // the window's menu and shortcuts, as New's caller installs them
		pressShortcut(a.w.win, ctrl(fyne.KeyComma, false))
	})
	var edit *widget.Button
	a.waitFor("Settings with its Agents row", func() bool {
		edit = findButton(a.w.win.Canvas(), "Edit agents…")
		listed := false
		walkOverlay(a.w.win.Canvas(), func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.Label); ok && l.Text == "Claude Code, Codex, Gemini CLI" {
				listed = true
			}
		})
		return edit != nil && listed
	})
	a.onMain(func() { test.Tap(edit) })
	var entry *widget.Entry
	a.waitFor("the agents editor over Settings", func() bool {
		walkOverlay(a.w.win.Canvas(), func(o fyne.CanvasObject) {
			if e, ok := o.(*widget.Entry); ok && e.MultiLine {
				entry = e
			}
		})
		return entry != nil
	})
	a.onMain(func() {
		test.Type(entry, "Mine = my-agent --acp")
		test.Tap(findButton(a.w.win.Canvas(), "Save"))
	})
	testfix.Wait(t, 30*time.Second, "the agent kept", func() bool {
		own, err := acp.SavedAgents(st)
		return err == nil && len(own) == 1 && own[0] == acp.AgentEntry{Name: "Mine", Command: "my-agent --acp"}
	})
	a.waitFor("the Agent pane offering it", func() bool {
		return slices.Equal(a.h.pane.Agent.Options, []string{"Claude Code", "Codex", "Gemini CLI", "Mine", agent.Custom})
	})
}
