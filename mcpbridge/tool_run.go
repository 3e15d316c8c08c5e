package mcpbridge

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/task"
	"trestle/app/trust"
)

// Bounds of trestle_run and trestle_run_status.
const (
	// defaultRunWait is how long a call waits for its run by default, in
	// seconds: well under the 60 s after which MCP clients (the TypeScript
	// SDK, Inspector) give up on a request, so the run_id always reaches
	// the agent.
	defaultRunWait = 25
	maxRunWait     = 600
	defaultTail    = 200 // output lines a result carries by default
	maxTail        = task.MaxLines
)

// progressEvery is how long a run's output lines wait before they go out
// as one progress notification: a test run can print thousands of lines a
// second, and each notification is a message to the client. A run that
// ends within it sends none: its result, which follows at once, carries
// the output. A variable for tests.
var progressEvery = 200 * time.Millisecond

type runParams struct {
	Task        string   `json:"task" jsonschema:"build, test, vet, or a task trestle_tasks lists"`
	Args        []string `json:"args,omitempty" jsonschema:"extra arguments for the task's command; package patterns replace go build, test and vet's default ./..."`
	Selection   string   `json:"selection,omitempty" jsonschema:"the .trestle.json selection (default: default)"`
	WaitSeconds *int     `json:"wait_seconds,omitempty" jsonschema:"wait up to this long for the run to end (default 25, at most 600); the run goes on after the call returns or is cancelled"`
	TailLines   int      `json:"tail_lines,omitempty" jsonschema:"output lines to return, from the end (default 200)"`
}

type runResult struct {
	State      string         `json:"state"`
	RunID      string         `json:"run_id"`
	Task       string         `json:"task"`
	Command    string         `json:"command"`
	RunState   string         `json:"run_state"`
	ExitCode   int            `json:"exit_code"`
	DurationMS int64          `json:"duration_ms"`
	Output     string         `json:"output"`
	Dropped    int            `json:"dropped_lines"`
	Problems   []task.Problem `json:"problems"`
}

func (s *Server) runTool() server.ServerTool {
	tool := mcp.NewTool("trestle_run",
		mcp.WithDescription("Runs a task (build, test, vet or one of trestle_tasks)"+
			s.inMode(" in the window's Run pane", "")+"; a progress token streams its output. "+
			"Returns its output and problems when it ends, or after wait_seconds its run_id for trestle_run_status. "+
			"One run at a time per project. "+
			s.inMode("The window first saves the person's unsaved editors (the result says which), or asks them. ", "")+
			"Package patterns in args replace the task's default ./...: "+
			`e.g. {"task":"test","args":["-run","TestParse","./app/..."]} runs go test -run TestParse ./app/...`),
		mcp.WithInputSchema[runParams](),
		results[runResult](),
		runsCode("Run a task", true, false),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.run)}
}

func (s *Server) run(ctx context.Context, p runParams) *mcp.CallToolResult {
	wait, tail, bad := runBounds(p.WaitSeconds, p.TailLines)
	if bad != nil {
		return bad
	}
	conf, _ := s.config()
	t, ok := conf.Task(p.Task)
	w, withheld := conf.WithheldTask(p.Task)
	switch {
	case !ok && withheld:
		return fail(stateRefused, "task %q (%s) comes from .trestle.json and the project is untrusted, so it is not run; "+
			"the person can %s. The tasks that run are: %s", p.Task, quotedCommand(w.Command), trust.HowToTrust,
			strings.Join(conf.TaskNames(), ", "))
	case !ok:
		return fail(stateProblem, "no task %q; the tasks are: %s", p.Task, strings.Join(conf.TaskNames(), ", "))
	}
	untrusted := withheldNote(conf, selectionOr(p.Selection))
	if withheld { // build, test or vet, redefined by the file: the default runs
		untrusted = strings.TrimSpace(fmt.Sprintf("Note: the project is untrusted, so .trestle.json's %s (%s) was not run but the default %s; "+
			"the person can %s. %s", p.Task, quotedCommand(w.Command), quotedCommand(t.Command), trust.HowToTrust,
			strings.TrimPrefix(untrusted, "Note: ")))
	}
	sel, ok := conf.Selection(selectionOr(p.Selection))
	if !ok {
		return fail(stateProblem, "no selection %q; the selections are: %s", p.Selection, strings.Join(conf.SelectionNames(), ", "))
	}
	if err := task.CheckTrust(t, p.Args); err != nil { // refused whatever the person answers: do not ask
		return fail(stateRefused, "%v: they can %s", err, trust.HowToTrust)
	}
	if err := s.permit(ctx, runRequest(t, p.Args, selectionOr(p.Selection), sel)); err != nil {
		return failErr(err)
	}
	note, bad := s.beforeRun(ctx, commandLine(t, p.Args))
	if bad != nil {
		return bad
	}
	prog := newProgress(ctx)
	defer prog.Close()
	run, err := s.opts.Services.Tasks.Start(context.WithoutCancel(ctx), t, p.Args, sel, func(l task.Line) {
		s.activityLine(l)
		prog.Line(l)
	})
	if err != nil {
		return failErr(err)
	}
	s.runs.started(run, sessionOwner(ctx))
	s.announceRun(ctx, run)
	return withNote(withNote(awaitRun(ctx, run, wait, tail, prog), note), untrusted)
}

// activityLine shows a run's output line in the window, if there is one.
func (s *Server) activityLine(l task.Line) {
	if a := s.opts.Activity; a != nil {
		a.RunLine(l)
	}
}

// announceRun tells the window that the calling agent started run, and
// when it ends.
func (s *Server) announceRun(ctx context.Context, run *task.Run) {
	a := s.opts.Activity
	if a == nil {
		return
	}
	a.RunStarted(clientName(ctx), run)
	go func() { <-run.Done(); a.RunEnded(run) }()
}

// awaitRun waits up to wait for run and describes it. A caller that
// cancels (notifications/cancelled, its client's timeout, or going away)
// ends only the wait: the run goes on, to be followed with
// trestle_run_status or stopped with trestle_stop.
func awaitRun(ctx context.Context, run *task.Run, wait time.Duration, tail int, prog *progress) *mcp.CallToolResult {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-run.Done():
	case <-timer.C:
	case <-ctx.Done():
	}
	prog.Close() // what is pending is in the result, which follows at once
	return describeRun(run, tail)
}

func runBounds(waitSeconds *int, tailLines int) (time.Duration, int, *mcp.CallToolResult) {
	wait := defaultRunWait
	if waitSeconds != nil {
		wait = *waitSeconds
	}
	if wait < 0 || wait > maxRunWait {
		return 0, 0, fail(stateProblem, "wait_seconds %d is outside 0..%d", wait, maxRunWait)
	}
	if tailLines < 0 || tailLines > maxTail {
		return 0, 0, fail(stateProblem, "tail_lines %d is outside 0..%d", tailLines, maxTail)
	}
	if tailLines == 0 {
		tailLines = defaultTail
	}
	return time.Duration(wait) * time.Second, tailLines, nil
}

func selectionOr(name string) string {
	if name == "" {
		return "default"
	}
	return name
}

// describeRun is a run's result: done while it runs or when it passed; a
// problem when it failed, timed out or was stopped.
func describeRun(run *task.Run, tail int) *mcp.CallToolResult {
	out, dropped := run.Output(tail)
	probs := run.Problems()
	if probs == nil {
		probs = []task.Problem{}
	}
	res := runResult{State: stateDone, RunID: run.ID, Task: run.Task.Name, Command: commandLine(run.Task, run.Args),
		RunState: string(run.State()), ExitCode: run.ExitCode(), DurationMS: run.Duration().Milliseconds(),
		Output: out, Dropped: dropped, Problems: probs}
	head := fmt.Sprintf("%s %s: %s", run.ID, res.Command, res.RunState)
	switch run.State() {
	case task.StateRunning:
		head += fmt.Sprintf(" (still running after %s; it goes on): follow it with trestle_run_status {\"run_id\":%q,\"wait_seconds\":%d}, or stop it with trestle_stop",
			run.Duration().Round(time.Second), run.ID, defaultRunWait)
	case task.StatePassed:
		head += " (exit code 0)"
	case task.StateStopped: // asked for: the answer is the run's, not a failed call
		head += fmt.Sprintf(" after %s, before it finished", run.Duration().Round(time.Millisecond))
	default:
		res.State = stateProblem
		head = fmt.Sprintf("problem: %s (exit code %d, %s)", head, res.ExitCode, plural(len(probs), "problem"))
	}
	var b strings.Builder
	b.WriteString(head)
	for _, p := range probs {
		b.WriteString("\n" + problemLine(p))
	}
	if dropped > 0 {
		fmt.Fprintf(&b, "\n(%d earlier output lines were dropped)", dropped)
	}
	text := fmt.Sprintf("%s\n%s", b.String(), out)
	r := mcp.NewToolResultStructured(res, text)
	r.IsError = res.State != stateDone
	return r
}

// progress sends a run's output lines as progress notifications to the
// caller, when it asked for them with a progress token: the lines of each
// progressEvery in one notification, sent at its end if the call is still
// waiting. Once the call's wait is over (close), it sends nothing: the
// result carries the output, and a chunk just before it (which the
// TypeScript SDK may drop) or after it (past the call) helps nobody. Safe
// for concurrent use.
type progress struct {
	ctx   context.Context
	token mcp.ProgressToken
	srv   *server.MCPServer

	mu      sync.Mutex
	n       int
	pending []string
	send    *time.Timer // the pending lines' notification, once scheduled
	closed  bool
}

func newProgress(ctx context.Context) *progress {
	token, _ := ctx.Value(progressTokenKey{}).(mcp.ProgressToken)
	return &progress{ctx: ctx, srv: server.ServerFromContext(ctx), token: token}
}

// Line sends a run's output line with the others of its progressEvery.
func (p *progress) Line(l task.Line) {
	if p.token == nil || p.srv == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.n = l.N
	p.pending = append(p.pending, l.Text)
	if p.send == nil {
		p.send = time.AfterFunc(progressEvery, p.sendPending)
	}
}

// sendPending sends the lines gathered since the last notification.
func (p *progress) sendPending() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.send = nil
	if !p.closed && len(p.pending) > 0 {
		p.sendLocked()
	}
}

// Close ends the progress of a call whose wait is over: nothing more is
// sent. It returns once no notification is being sent, so every one sent
// is queued before the result.
func (p *progress) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.pending = nil
	if p.send != nil {
		p.send.Stop()
		p.send = nil
	}
}

// Note sends one message as a progress notification, when the caller
// asked for progress.
func (p *progress) Note(msg string) {
	if p.token == nil || p.srv == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.n++
	p.pending = append(p.pending[:0], msg)
	p.sendLocked()
}

func (p *progress) sendLocked() {
	msg := strings.Join(p.pending, "\n")
	if len(msg) > 4000 {
		msg = "…" + msg[len(msg)-4000:]
	}
	p.srv.SendNotificationToClient(p.ctx, "notifications/progress",
		map[string]any{"progressToken": p.token, "progress": p.n, "message": msg})
	p.pending = p.pending[:0]
}
