package mcpbridge

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/agent"
	"trestle/app/task"
)

// Bounds of trestle_run and trestle_run_status.
const (
	defaultTail = 200 // output lines a result carries by default
	maxTail     = task.MaxLines
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
	out, err := s.agent.Run(ctx, s.caller(ctx), agent.RunInput{Task: p.Task, Args: p.Args, Selection: p.Selection, WaitSeconds: wait})
	if err != nil {
		return failErr(err)
	}
	return withNotes(describeRun(out.Run, tail), out.Notes)
}

// runBounds are a run call's wait in seconds and output lines.
func runBounds(waitSeconds *int, tailLines int) (int, int, *mcp.CallToolResult) {
	wait := agent.DefaultRunWait
	if waitSeconds != nil {
		wait = *waitSeconds
	}
	if wait < 0 || wait > agent.MaxRunWait {
		return 0, 0, fail(stateProblem, "wait_seconds %d is outside 0..%d", wait, agent.MaxRunWait)
	}
	if tailLines < 0 || tailLines > maxTail {
		return 0, 0, fail(stateProblem, "tail_lines %d is outside 0..%d", tailLines, maxTail)
	}
	if tailLines == 0 {
		tailLines = defaultTail
	}
	return wait, tailLines, nil
}

// describeRun is a run's result: done while it runs or when it passed; a
// problem when it failed, timed out or was stopped.
func describeRun(run *task.Run, tail int) *mcp.CallToolResult {
	out, dropped := run.Output(tail)
	probs := run.Problems()
	if probs == nil {
		probs = []task.Problem{}
	}
	res := runResult{State: stateDone, RunID: run.ID, Task: run.Task.Name, Command: agent.CommandLine(run.Task, run.Args),
		RunState: string(run.State()), ExitCode: run.ExitCode(), DurationMS: run.Duration().Milliseconds(),
		Output: out, Dropped: dropped, Problems: probs}
	head := fmt.Sprintf("%s %s: %s", run.ID, res.Command, res.RunState)
	switch run.State() {
	case task.StateRunning:
		head += fmt.Sprintf(" (still running after %s; it goes on): follow it with trestle_run_status {\"run_id\":%q,\"wait_seconds\":%d}, or stop it with trestle_stop",
			run.Duration().Round(time.Second), run.ID, agent.DefaultRunWait)
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
