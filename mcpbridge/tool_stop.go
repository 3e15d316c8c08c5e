package mcpbridge

import (
	"context"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/task"
)

type stopParams struct {
	What      string `json:"what" jsonschema:"run (the running task) or eval (the running evaluation)"`
	Selection string `json:"selection,omitempty" jsonschema:"for eval: the selection whose evaluation to stop (default: default)"`
}

func (s *Server) stopTool() server.ServerTool {
	tool := mcp.NewTool("trestle_stop",
		mcp.WithDescription("Stops the running task (its whole process group) or the running evaluation (its "+
			`evaluator restarts, state lost). e.g. {"what":"run"}`),
		mcp.WithInputSchema[stopParams](),
		withEnum("what", "run", "eval"),
		results[stateResult](),
		hints("Stop a run or evaluation", false, true, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.stop)}
}

func (s *Server) stop(ctx context.Context, p stopParams) *mcp.CallToolResult {
	switch {
	case p.What == "run" && s.opts.Services.Tasks == nil, p.What == "eval" && s.opts.Services.Eval == nil:
		return fail(stateNone, "this server has no %s to stop", map[string]string{"run": "task runner", "eval": "evaluator"}[p.What])
	}
	switch p.What {
	case "run":
		run := s.opts.Services.Tasks.Current()
		if run == nil {
			return fail(stateNone, "no task is running")
		}
		if err := s.permitStop(ctx, run); err != nil {
			return failErr(err)
		}
		if err := s.opts.Services.Tasks.Stop(); err != nil {
			return failErr(err)
		}
		return done(stateResult{State: stateDone, RunID: run.ID}, "Stopped %s (%s).", run.ID, run.Task.Name)
	case "eval":
		sel := selectionOr(p.Selection) // the evaluation may be the person's: stopping it loses their state
		req := permission.Request{Kind: permission.KindRestart, Selection: sel,
			Detail: "stop the running evaluation of the " + sel + " evaluator, which restarts: its variables, imports and state are lost"}
		if err := s.permit(ctx, req); err != nil {
			return failErr(err)
		}
		if err := s.opts.Services.Eval.Stop(p.Selection); err != nil {
			return failErr(err) // nothing running is "none"
		}
		return done(stateResult{State: stateDone}, "Stopped the evaluation; the evaluator starts fresh on the next call.")
	}
	return fail(stateProblem, "what is %q; use \"run\" or \"eval\"", p.What)
}

// permitStop asks the gate whether the caller may stop run. A run the
// caller started it may stop without a second question (it was asked
// about when it started), unless the policy is deny, which always wins;
// anyone else's run (the person's, another agent's) is asked about like a
// run: stopping it loses the work it was doing.
func (s *Server) permitStop(ctx context.Context, run *task.Run) error {
	g := s.opts.Services.Gate
	if g == nil {
		return nil
	}
	if s.runs.ownedBy(run, sessionOwner(ctx)) && g.Policy() != permission.PolicyDeny {
		return nil
	}
	req := runRequest(run.Task, run.Args, "", projconf.Selection{})
	req.Kind = permission.KindStop
	return s.permit(ctx, req)
}

// runOwners remembers which session started each agent run, while it
// runs. The zero value is ready; safe for concurrent use.
type runOwners struct {
	mu    sync.Mutex
	owner map[*task.Run]string
}

// started records that owner started run, until the run ends.
func (o *runOwners) started(run *task.Run, owner string) {
	if owner == "" {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.owner == nil {
		o.owner = map[*task.Run]string{}
	}
	o.owner[run] = owner
	go func() {
		<-run.Done()
		o.mu.Lock()
		defer o.mu.Unlock()
		delete(o.owner, run)
	}()
}

// ownedBy reports whether owner started run.
func (o *runOwners) ownedBy(run *task.Run, owner string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return owner != "" && o.owner[run] == owner
}
