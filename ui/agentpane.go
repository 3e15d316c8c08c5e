package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app/acp"
	"trestle/app/changeset"
	"trestle/app/permission"
	"trestle/app/sandbox"
	"trestle/app/store"
	"trestle/ui/agent"
)

// agentPrefKey is where the app's preferences keep the last agent command line.
const agentPrefKey = "agent.command"

// Bounds of a hosted session.
const (
	// agentStartBound is how long an agent may take to start and open its
	// session: npx may first download the agent's package.
	agentStartBound = 3 * time.Minute
	// agentStopBound is how long closing the window waits for a turn that
	// was ended to propose what the agent wrote.
	agentStopBound = 10 * time.Second
	// maxQueuedUpdates bounds the updates waiting for the main goroutine
	// (stream); past it they are counted and dropped, never waited for (the
	// ACP connection must not block).
	maxQueuedUpdates = 10000
	// maxAgentStderr is how much of the agent's stderr is kept, to explain
	// a failed start.
	maxAgentStderr = 8 << 10
)

// agentHost hosts one ACP agent session at a time in the window's Agent
// pane: the staging copy, the agent process in its sandbox, the turns, and
// the change set each turn's writes become. Its fields after pane and w
// are guarded by mu; the pane is touched on the main goroutine only
// (through do).
type agentHost struct {
	w    *Window
	pane *agent.Pane
	// title is its tab's title: "Agent", "Agent 2", …
	title string
	// group is the window's Agent panes, this one included.
	group *agentGroup
	// do runs a function on the main goroutine, dropped once the window
	// closes (w.onMain); tests swap it for their fake main goroutine.
	// What a session's goroutines show goes through doInOrder.
	do func(func())
	// stream carries the session's updates and its commands' news to the
	// pane in batches, through do.
	stream streamBatch[news]
	// env is added to the agent's environment (tests name their markers).
	env []string
	// mcp are the MCP servers for a session's staging copy (Options.AgentMCP).
	mcp func(*sandbox.Stage) []sdk.McpServer
	// bwrap is bubblewrap's path; "" finds it on PATH (tests name a missing one).
	bwrap string
	// life ends when the window closes: a start under way gives up.
	life    context.Context
	endLife context.CancelFunc

	mu     sync.Mutex
	cur    *hosted
	closed bool // the window is closing: no session may start
	// resuming is the stored session the next start resumes (main goroutine only).
	resuming *acp.Saved
	// earlier are the stored sessions the pane lists, by the pane's id.
	earlier map[string]acp.Saved
	// abortStart ends the start under way, if any (Stop while starting).
	abortStart context.CancelFunc
	turns      sync.WaitGroup // starts and turns under way
}

// news is what the agent's session sends the pane: a session update, or
// news of a command it runs.
type news struct {
	update sdk.SessionUpdate
	term   *acp.TerminalEvent
}

// hosted is one session: the agent process and its staging copy.
type hosted struct {
	sess  *acp.Session
	stage *sandbox.Stage
	name  string
	// ended is set when the session is stopped; the last turn then closes
	// the stage.
	ended bool
	// turn is set while a prompt turn runs.
	turn bool
	// lastSet is this session's last pending change set: the next turn's
	// proposal holds all of the session's writes and replaces it.
	lastSet string
	// keep is set when the session's writes could not be proposed: the
	// staging copy is then kept, and the person told where.
	keep   bool
	stderr *tailBuffer
	// told are the files the person changed that the agent had changed
	// too, which the pane has named.
	told map[string]bool
	// saved is the session's record in the store.
	saved *acp.Saved
}

// agentGroup is the window's Agent panes, one a session: the first is
// w.panes.agent, and each pane's New session adds one. Safe for
// concurrent use.
type agentGroup struct {
	mu  sync.Mutex
	all []*agentHost
}

// hosts are the group's panes, in the order they were made.
func (g *agentGroup) hosts() []*agentHost {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.all)
}

// makeAgentPane is the Agent pane's entry in paneParts: the first of the
// window's Agent panes (New session adds more). Main goroutine only.
func makeAgentPane(w *Window) pane {
	h := newAgentHost(w, &agentGroup{}, "Agent", fyne.CurrentApp().Preferences().String(agentPrefKey))
	h.do = w.onMain
	w.panes.agent = h
	return h
}

// newAgentHost makes an Agent pane of w titled title in group, with
// command as its command line. Main goroutine only.
func newAgentHost(w *Window, group *agentGroup, title, command string) *agentHost {
	h := &agentHost{w: w, group: group}
	h.stream = streamBatch[news]{do: func(fn func()) { h.do(fn) }, show: h.showNews, max: maxQueuedUpdates}
	h.life, h.endLife = context.WithCancel(context.Background())
	h.pane = agent.New(command)
	h.pane.OnStart = h.start
	h.pane.OnSend = h.send
	h.pane.OnCancel = h.cancel
	h.pane.OnStop = func() { h.turns.Go(h.stop) }
	h.pane.OnMode = func(id string) { h.choose("mode", id, (*acp.Session).SetMode) }
	h.pane.OnModel = func(id string) { h.choose("model", id, (*acp.Session).SetModel) }
	h.pane.OnNew = h.newSession
	h.pane.OnResume = h.resume
	h.pane.OnAgents = h.editAgents
	h.title = title
	group.mu.Lock()
	group.all = append(group.all, h)
	group.mu.Unlock()
	return h
}

// newSession adds an Agent pane for one more session, beside this one,
// with the same agent, and shows it. Main goroutine only.
func (h *agentHost) newSession() {
	n := len(h.group.hosts()) + 1
	nh := newAgentHost(h.w, h.group, fmt.Sprintf("Agent %d", n), h.pane.Command.Text)
	nh.do, nh.env, nh.mcp, nh.bwrap = h.do, h.env, h.mcp, h.bwrap
	h.w.panes.add(nh)
	h.w.panes.show(nh)
	nh.pane.SetAgents(h.paneChoices())
	nh.pane.Command.SetText(h.pane.Command.Text)
	nh.listEarlier()
}

// An Agent pane is a part of the window (panes.go); agents do not read it
// through trestle_output.
func (h *agentHost) paneTitle() string                 { return h.title }
func (h *agentHost) paneContent() fyne.CanvasObject    { return h.pane.Content }
func (h *agentHost) paneFocus() fyne.Focusable         { return h.pane.Focus() }
func (h *agentHost) agentText(int) (name, text string) { return "", "" }

// start starts a session of command in a new staging copy, off the main
// goroutine. Main goroutine only.
func (h *agentHost) start(command string) {
	if c, prog, missing := missingProgram(command); missing {
		h.offerInstall(c, prog)
		return
	}
	h.startWith(command, false)
}

// resumeWith starts saved's agent in a new staging copy and resumes its
// session there. Main goroutine only.
func (h *agentHost) resumeWith(saved acp.Saved) {
	h.resuming = &saved
	h.pane.Command.SetText(saved.Command)
	h.startWith(saved.Command, false)
}

// startWith starts command, unsandboxed when the person chose that. Main
// goroutine only.
func (h *agentHost) startWith(command string, unsandboxed bool) {
	fyne.CurrentApp().Preferences().SetString(agentPrefKey, command)
	h.pane.SetState(agent.Starting, "Copying the project and starting the agent…")
	if unsandboxed {
		h.pane.Note("Starting " + command + " UNSANDBOXED: it can write the project and everything else you can")
	} else {
		h.pane.Note("Starting " + command)
	}
	policy, resume := h.w.settings.policy, h.resuming
	h.resuming = nil
	h.turns.Go(func() { h.launch(command, policy, unsandboxed, resume) })
}

// offerUnsandboxed says why the agent cannot be sandboxed here and offers
// to run it without, with what that means. Main goroutine only.
func (h *agentHost) offerUnsandboxed(command, why string, resume *acp.Saved) {
	msg := widget.NewLabel(why + "\n\nRun the agent unsandboxed? It then works in its copy of the project, and what it " +
		"writes there becomes a change set as usual, but nothing stops its own tools or shell from writing the project, " +
		"or anything else you can write, by absolute path.")
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm("No sandbox for the agent", "Run unsandboxed", "Cancel", msg, func(ok bool) {
		if ok && h.pane.State() == agent.Stopped {
			h.resuming = resume
			h.startWith(command, true)
		}
	}, h.w.win)
	d.Resize(fyne.NewSize(560, 320))
	h.w.dialogs.show(d)
}

// launch makes the stage and starts the agent in it.
func (h *agentHost) launch(command, policy string, unsandboxed bool, resume *acp.Saved) {
	ctx, cancel := context.WithTimeout(h.life, agentStartBound)
	defer cancel()
	h.mu.Lock()
	h.abortStart = cancel
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.abortStart = nil
		h.mu.Unlock()
	}()
	fail := func(err error) {
		msg := changeset.EscapeControls(err.Error(), "")
		h.doInOrder(func() {
			h.pane.Note("The agent did not start: " + msg)
			h.pane.SetState(agent.Stopped, "The agent did not start; see above.")
		})
	}
	stage, err := sandbox.NewStage(ctx, h.w.project)
	if err != nil {
		fail(err)
		return
	}
	cur := &hosted{stage: stage, name: command, stderr: &tailBuffer{max: maxAgentStderr}, told: map[string]bool{}}
	var servers []sdk.McpServer
	if h.mcp != nil {
		servers = h.mcp(stage)
	}
	s, err := acp.Launch(ctx, acp.Options{
		Command:    []string{"sh", "-c", command},
		Env:        h.env,
		Stage:      stage,
		Sandbox:    sandbox.Options{Hidden: agentHidden(), Unsandboxed: unsandboxed, Bwrap: h.bwrap},
		OnUpdate:   h.update,
		OnTerminal: func(ev acp.TerminalEvent) { h.queueNews(news{term: &ev}) },
		Policy:     h.policyFunc(policy),
		Ask: func(ctx context.Context, req sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
			h.mu.Lock() // a hostile agent may ask before the session is open
			name := cur.name
			h.mu.Unlock()
			return h.ask(ctx, name, req)
		},
		Editor:     h.editorText,
		McpServers: servers,
		Stderr:     cur.stderr,
		ClientName: "trestle", ClientVersion: h.w.actions.Version,
	})
	if err == nil {
		if err = h.open(ctx, s, resume); err != nil {
			s.Close()
		}
	}
	if err != nil {
		stage.Close()
		if tail := strings.TrimSpace(cur.stderr.String()); tail != "" {
			err = fmt.Errorf("%w\nThe agent's last words: %s", err, tail)
		}
		fail(err)
		if errors.Is(err, sandbox.ErrNoSandbox) {
			why := changeset.EscapeControls(err.Error(), "\n")
			h.do(func() { h.offerUnsandboxed(command, why, resume) })
		}
		return
	}
	h.mu.Lock()
	cur.sess = s
	if info := s.Agent.AgentInfo; info != nil && info.Name != "" {
		cur.name = agent.Short(info.Name, agent.MaxTitleRunes) // it names the change sets, too
	}
	cur.saved = h.record(command, cur.name, s, resume)
	closed := h.closed
	if !closed {
		h.cur = cur
	}
	h.mu.Unlock()
	if closed { // the window closed while the agent started
		s.Close()
		stage.Close()
		return
	}
	name, dir := changeset.EscapeControls(cur.name, ""), stage.Dir
	h.doInOrder(func() { // after a resumed session's history
		h.pane.Note(fmt.Sprintf("%s works in a sandboxed copy of the project (%s); the project itself stays as it is until you apply its change set.", name, dir))
		h.pane.SetState(agent.Ready, name+" is ready.")
		if m := s.Modes; m != nil {
			opts := make([]agent.Option, len(m.AvailableModes))
			for i, o := range m.AvailableModes {
				opts[i] = agent.Option{ID: string(o.Id), Name: o.Name}
			}
			h.pane.SetModes(opts, string(m.CurrentModeId))
		}
		if m := s.Models; m != nil {
			opts := make([]agent.Option, len(m.AvailableModels))
			for i, o := range m.AvailableModels {
				opts[i] = agent.Option{ID: string(o.ModelId), Name: o.Name}
			}
			h.pane.SetModels(opts, string(m.CurrentModelId))
		}
	})
}

// agentHidden are the folders a hosted agent must not read: Trestle's
// registry of windows (store.ConfigDir's "mcp", as cmd/trestle names it),
// whose tokens would let it attach to a window outside the sandbox. It
// is made when missing, so that it is hidden even if a window registers
// during the session.
func agentHidden() []string {
	dir, err := store.ConfigDir()
	if err != nil {
		return nil
	}
	reg := filepath.Join(dir, "mcp")
	os.MkdirAll(reg, 0o700)
	return []string{reg}
}

// policyFunc is the window's agent policy now: the gate's, which Settings
// changes, else the policy the session started under. Any goroutine.
func (h *agentHost) policyFunc(start string) func() string {
	return func() string {
		if g := h.w.services.Gate; g != nil {
			return g.Policy()
		}
		if start == "" {
			return permission.PolicyAsk
		}
		return start
	}
}

// editorText is the person's editor text of rel, when it has a tab. Off
// the main goroutine (the ACP connection's).
func (h *agentHost) editorText(rel string) (string, bool) {
	cp, err := h.w.project.Resolve(rel)
	if err != nil {
		return "", false
	}
	text, open, _, err := h.w.Buffer(context.Background(), cp)
	return text, open && err == nil
}

// update queues a session update for the main goroutine, batched
// (stream). It never blocks. Called on the ACP connection's goroutine.
func (h *agentHost) update(n sdk.SessionNotification) { h.queueNews(news{update: n.Update}) }

// queueNews queues news for the main goroutine (see update). Any goroutine.
func (h *agentHost) queueNews(n news) { h.stream.add(n) }

// doInOrder runs fn on the main goroutine after the news queued so far
// has been shown: a turn's end comes after the last of its messages. Any
// goroutine.
func (h *agentHost) doInOrder(fn func()) {
	h.stream.flush()
	h.do(fn)
}

// showNews shows a batch of the stream's news, and how many were dropped.
// Main goroutine only.
func (h *agentHost) showNews(batch []news, dropped int) {
	var updates []sdk.SessionUpdate
	for _, n := range batch {
		if t := n.term; t != nil {
			h.pane.Update(updates)
			updates = updates[:0]
			h.pane.Terminal(t.ID, t.Command, t.Output, t.Exit)
		} else {
			updates = append(updates, n.update)
		}
	}
	h.pane.Update(updates)
	if dropped > 0 {
		h.pane.Note(fmt.Sprintf("%d updates from the agent were dropped: it sent faster than the window could show", dropped))
	}
}
