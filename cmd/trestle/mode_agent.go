package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	sdk "github.com/coder/acp-go-sdk"

	"trestle/app/acp"
	"trestle/app/agent"
	"trestle/app/changeset"
	"trestle/app/errdefs"
	"trestle/app/permission"
	"trestle/app/project"
	"trestle/app/sandbox"
	"trestle/app/store"
	"trestle/app/workbench"
)

const agentHelp = `Usage:
  trestle agent run --agent 'COMMAND LINE' --prompt TEXT [options] [DIR]

Hosts one prompt turn of an Agent Client Protocol agent on the project in DIR
(default: the current folder). The agent runs inside bubblewrap in a staging
copy of the project, which is all it can write; the real project stays
read-only. The transcript (messages, plans, tool calls) goes to stdout;
whatever the agent wrote becomes one pending change set, whose id is printed
last (review it with trestle changes show ID). Exit status 0 when the turn
ended normally.

Options:
  --agent-policy allow|deny   answer the agent's permission requests (default
                              deny: nobody is there to ask)
  --writable DIR              let the agent also write DIR (its own state, say
                              ~/.claude); may be repeated
  --unsandboxed               run the agent without bubblewrap: it can then
                              write the project and everything else you can
`

// agentRun is what `trestle agent run` was asked.
type agentRun struct {
	command, prompt, policy, dir string
	writable                     []string
	unsandboxed                  bool
}

// parseAgentArgs parses the arguments after "agent".
func parseAgentArgs(args []string) (agentRun, error) {
	if len(args) == 0 || args[0] != "run" {
		return agentRun{}, errors.New("agent: use trestle agent run --agent 'COMMAND LINE' --prompt TEXT [DIR]")
	}
	var r agentRun
	var writable stringList
	fs := flag.NewFlagSet("trestle agent run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&r.command, "agent", "", "")
	fs.StringVar(&r.prompt, "prompt", "", "")
	fs.StringVar(&r.policy, "agent-policy", permission.PolicyDeny, "")
	fs.BoolVar(&r.unsandboxed, "unsandboxed", false, "")
	fs.Var(&writable, "writable", "")
	if err := fs.Parse(args[1:]); err != nil {
		return agentRun{}, fmt.Errorf("agent run: %w", err)
	}
	r.writable = writable
	switch {
	case strings.TrimSpace(r.command) == "":
		return agentRun{}, errors.New("agent run: --agent 'COMMAND LINE' is required")
	case r.prompt == "":
		return agentRun{}, errors.New("agent run: --prompt TEXT is required")
	case r.policy != permission.PolicyAllow && r.policy != permission.PolicyDeny:
		return agentRun{}, fmt.Errorf("agent run: --agent-policy %q: use allow or deny", r.policy)
	case fs.NArg() > 1:
		return agentRun{}, fmt.Errorf("agent run: one project folder, not %d", fs.NArg())
	}
	r.dir = fs.Arg(0)
	return r, nil
}

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// runAgent is `trestle agent ...`.
func runAgent(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
		io.WriteString(stdout, agentHelp)
		return 0
	}
	r, err := parseAgentArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "trestle: %v (see trestle agent help)\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ok, err := r.run(ctx, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "trestle: agent run: %s\n", changeset.EscapeControls(err.Error(), ""))
		return 1
	}
	if !ok {
		return 1
	}
	return 0
}

// run hosts the turn and proposes what the agent wrote; ok is whether the turn ended normally.
func (r agentRun) run(ctx context.Context, stdout, stderr io.Writer) (ok bool, err error) {
	dir := r.dir
	if dir == "" {
		dir = "."
	}
	p, err := project.Open(dir)
	if err != nil {
		return false, err
	}
	paths, err := userPaths()
	if err != nil {
		return false, err
	}
	db, err := store.Open(paths.store)
	if err != nil {
		return false, err
	}
	changes := changeset.NewManager(db, p)
	if _, err := changes.Start(); err != nil {
		return false, err
	}
	stage, err := sandbox.NewStage(ctx, p)
	if err != nil {
		return false, err
	}
	keep := false // the staging copy, when its changes could not be stored
	defer func() {
		if keep {
			fmt.Fprintf(stderr, "trestle: the agent's work is kept in %s\n", stage.Dir)
			return
		}
		stage.Close()
	}()
	if r.unsandboxed {
		fmt.Fprintln(stderr, "trestle: running the agent UNSANDBOXED: it can write the project and everything else you can")
	}
	os.MkdirAll(paths.registry, 0o700) // so that it is hidden even if a window starts during the turn
	tr := &transcript{w: stdout, termOut: map[string]string{}}
	sess, err := acp.Start(ctx, acp.Options{
		McpServers: stagedMCP(stage),
		Command:    []string{"sh", "-c", r.command},
		Stage:      stage,
		Sandbox:    sandbox.Options{Unsandboxed: r.unsandboxed, Writable: r.writable, Hidden: []string{paths.registry}},
		OnUpdate:   tr.update,
		OnTerminal: tr.terminal,
		Policy:     func() string { return r.policy },
		Stderr:     stderr,
		ClientName: "trestle", ClientVersion: version,
	})
	if err != nil {
		if errors.Is(err, sandbox.ErrNoSandbox) {
			err = fmt.Errorf("%w (trestle agent run --unsandboxed does that)", err)
		}
		return false, err
	}
	reason, turnErr := sess.Prompt(ctx, r.prompt)
	sess.Close()
	if turnErr != nil {
		// What the agent wrote before it failed is still proposed.
		tr.line(fmt.Sprintf("[turn failed: %s]", changeset.EscapeControls(turnErr.Error(), "")))
	} else {
		tr.line(fmt.Sprintf("[turn ended: %s]", reason))
	}
	name := r.command
	if info := sess.Agent.AgentInfo; info != nil && info.Name != "" {
		name = info.Name
	}
	cs, skipped, err := stage.Propose(context.Background(), changes, workbench.Reader{Project: p}.Func(context.Background()),
		changeset.Proposal{Title: agentTitle(r.prompt), Description: "What the agent " + name + " wrote for the prompt:\n\n" + r.prompt,
			Client: name, Session: "acp:" + sess.ID()})
	for _, s := range skipped {
		fmt.Fprintf(stderr, "trestle: not in the change set: %s\n", changeset.EscapeControls(s, ""))
	}
	switch {
	case errors.Is(err, errdefs.ErrNotFound):
		fmt.Fprintln(stderr, "trestle: the agent changed no file; no change set")
	case err != nil:
		keep = true
		return false, err
	default:
		added, removed := cs.Stats()
		fmt.Fprintf(stdout, "[change set %s: %s, +%d -%d; review it with trestle changes show %s]\n", cs.ID, agent.Plural(len(cs.Files), "file"), added, removed, cs.ID)
		fmt.Fprintln(stdout, cs.ID)
	}
	if turnErr != nil {
		return false, turnErr
	}
	return reason == sdk.StopReasonEndTurn, nil
}

// stagedMCP is Trestle itself as an MCP server for the agent: headless,
// on the staging copy, run by the agent inside the sandbox, so it has
// gopls, the evaluator and the tasks on what it is changing. Its change
// set tools find the store read-only there: the agent writes the copy
// instead.
//
// It is deliberately not the window's own server (attached through the
// registry), though the issue asked for "attached to this window": the
// window's tools read the real project and the person's editor, where the
// agent's writes are not (they wait in the copy as a change set), so its
// gopls, reads and builds would answer about code the agent has not got;
// and the window's evaluator and tasks run outside the sandbox, so an
// attached agent could run code that writes the project. The registry is
// hidden from the sandbox for that reason. What the agent misses is the
// window-only tools (workbench, selection, notify, open); its own
// transcript reaches the person in the Agent pane instead.
func stagedMCP(stage *sandbox.Stage) []sdk.McpServer {
	exe, err := commandPath() // `trestle`, as the transcript shows it to the person
	if err != nil {
		return nil
	}
	return []sdk.McpServer{{Stdio: &sdk.McpServerStdio{Name: "trestle", Command: exe,
		Args: []string{"--mcp", stage.Dir}, Env: []sdk.EnvVariable{}}}}
}

// agentTitle is the change set's title: the prompt's first line, shortened.
func agentTitle(prompt string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n")
	if r := []rune(line); len(r) > 80 {
		line = string(r[:80]) + "…"
	}
	return "Agent: " + changeset.EscapeControls(line, "")
}

// transcript prints session updates as lines, agent text escaped. Safe
// for concurrent use.
type transcript struct {
	mu      sync.Mutex
	w       io.Writer
	midLine bool // a message chunk left the line open
	// termOut is each terminal's output after its last newline.
	termOut map[string]string
}

func (t *transcript) line(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.writeLine(s)
}

func (t *transcript) writeLine(s string) {
	if t.midLine {
		io.WriteString(t.w, "\n")
		t.midLine = false
	}
	io.WriteString(t.w, s+"\n")
}

func (t *transcript) update(n sdk.SessionNotification) {
	t.mu.Lock()
	defer t.mu.Unlock()
	u := n.Update
	switch {
	case u.AgentMessageChunk != nil:
		if c := u.AgentMessageChunk.Content; c.Text != nil {
			text := changeset.EscapeControls(c.Text.Text, "\n\t")
			io.WriteString(t.w, text)
			t.midLine = !strings.HasSuffix(text, "\n")
		}
	case u.AgentThoughtChunk != nil:
		if c := u.AgentThoughtChunk.Content; c.Text != nil {
			t.writeLine("[thought] " + changeset.EscapeControls(c.Text.Text, ""))
		}
	case u.ToolCall != nil:
		t.writeLine(fmt.Sprintf("[tool %s] %s (%s)", esc0(string(u.ToolCall.ToolCallId)), esc0(u.ToolCall.Title), esc0(string(u.ToolCall.Status))))
	case u.ToolCallUpdate != nil:
		status := ""
		if u.ToolCallUpdate.Status != nil {
			status = string(*u.ToolCallUpdate.Status)
		}
		t.writeLine(fmt.Sprintf("[tool %s] %s", esc0(string(u.ToolCallUpdate.ToolCallId)), esc0(status)))
	case u.Plan != nil:
		t.writeLine("[plan]")
		for _, e := range u.Plan.Entries {
			t.writeLine(fmt.Sprintf("  - [%s] %s", esc0(string(e.Status)), esc0(e.Content)))
		}
	}
}

// maxTermLine is how much of a terminal's output line is held waiting for its newline.
const maxTermLine = 64 << 10

// terminal prints a command the agent runs through terminal/*: its
// command line, its output a line at a time, and how it ended.
func (t *transcript) terminal(ev acp.TerminalEvent) {
	t.mu.Lock()
	defer t.mu.Unlock()
	prefix := "[terminal " + ev.ID + "] "
	if ev.Command != "" {
		t.writeLine(prefix + "$ " + esc0(ev.Command))
	}
	t.termOut[ev.ID] += ev.Output
	out := t.termOut[ev.ID]
	for {
		line, rest, ok := strings.Cut(out, "\n")
		if !ok {
			break
		}
		t.writeLine(prefix + esc0(line))
		out = rest
	}
	t.termOut[ev.ID] = out
	if (ev.Exit != nil || len(out) > maxTermLine) && out != "" { // the last line, or one too long to hold
		t.termOut[ev.ID] = ""
		t.writeLine(prefix + esc0(out))
	}
	if e := ev.Exit; e != nil {
		delete(t.termOut, ev.ID)
		switch {
		case e.Signal != nil:
			t.writeLine(prefix + "killed by " + esc0(*e.Signal))
		case e.ExitCode != nil:
			t.writeLine(fmt.Sprintf("%sexit %d", prefix, *e.ExitCode))
		}
	}
}

func esc0(s string) string { return changeset.EscapeControls(s, "") }
