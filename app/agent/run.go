package agent

import (
	"context"
	"fmt"
	"path"
	"strings"
	"sync"
	"time"

	"trestle/app/errdefs"
	"trestle/app/eval"
	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/task"
	"trestle/app/trust"
)

// Bounds of waiting for a run.
const (
	// DefaultRunWait is how long a run call waits for its run by default,
	// in seconds: well under the 60 s after which MCP clients (the
	// TypeScript SDK, Inspector) give up on a request, so the run's id
	// always reaches the agent.
	DefaultRunWait = 25
	MaxRunWait     = 600
)

// RunInput is a run an agent asks for.
type RunInput struct {
	Task      string   // build, test, vet, or a task of .trestle.json
	Args      []string // extra arguments for the task's command
	Selection string   // the .trestle.json selection; "" is default
	// WaitSeconds is how long to wait for the run to end, 0..MaxRunWait;
	// the run goes on after the wait.
	WaitSeconds int
}

// RunOutput is a run an agent started, after the wait.
type RunOutput struct {
	Run *task.Run
	// Notes for the caller, to put before the answer in this order: what
	// an untrusted project withheld, what the window did with unsaved
	// editors before the run.
	Notes []string
}

// Run starts in.Task for who and waits up to in.WaitSeconds for it: the
// task must be one the project's trust allows, the gate is asked, the
// window deals with unsaved editors (RunGuard) and shows the run, and
// who's progress hears its output. A caller that cancels ends only the
// wait: the run goes on, to be followed with RunStatus or stopped with
// StopRun. The run is who's own to stop.
func (a *Agent) Run(ctx context.Context, who Caller, in RunInput) (RunOutput, error) {
	if err := checkWait(in.WaitSeconds); err != nil {
		return RunOutput{}, err
	}
	conf, _ := a.config()
	t, untrusted, err := a.runnable(conf, in)
	if err != nil {
		return RunOutput{}, err
	}
	sel, ok := conf.Selection(SelectionOr(in.Selection))
	if !ok {
		return RunOutput{}, errdefs.Errorf(errdefs.ErrInvalid, "no selection %q; the selections are: %s", in.Selection, strings.Join(conf.SelectionNames(), ", "))
	}
	if err := task.CheckTrust(t, in.Args); err != nil { // refused whatever the person answers: do not ask
		return RunOutput{}, errdefs.Errorf(errdefs.ErrRefused, "%v: they can %s", err, trust.HowToTrust)
	}
	if err := a.Permit(ctx, who, runRequest(t, in.Args, SelectionOr(in.Selection), sel)); err != nil {
		return RunOutput{}, err
	}
	note, err := a.BeforeRun(ctx, who, CommandLine(t, in.Args))
	if err != nil {
		return RunOutput{}, err
	}
	if who.Progress != nil {
		defer who.Progress.Close()
	}
	run, err := a.start(ctx, who, t, in.Args, sel)
	if err != nil {
		return RunOutput{}, err
	}
	a.runs.started(run, who.Owner)
	a.await(ctx, who, run, time.Duration(in.WaitSeconds)*time.Second)
	return RunOutput{Run: run, Notes: notes(untrusted, note)}, nil
}

// runnable is the task in names, and a note when the project's trust
// changed what runs: an error when there is no such task, or it is
// .trestle.json's own and the project is untrusted.
func (a *Agent) runnable(conf projconf.Config, in RunInput) (projconf.Task, string, error) {
	t, ok := conf.Task(in.Task)
	w, withheld := conf.WithheldTask(in.Task)
	switch {
	case !ok && withheld:
		return t, "", errdefs.Errorf(errdefs.ErrRefused, "task %q (%s) comes from .trestle.json and the project is untrusted, so it is not run; "+
			"the person can %s. The tasks that run are: %s", in.Task, QuotedCommand(w.Command), trust.HowToTrust,
			strings.Join(conf.TaskNames(), ", "))
	case !ok:
		return t, "", errdefs.Errorf(errdefs.ErrInvalid, "no task %q; the tasks are: %s", in.Task, strings.Join(conf.TaskNames(), ", "))
	}
	untrusted := withheldNote(conf, SelectionOr(in.Selection))
	if withheld { // build, test or vet, redefined by the file: the default runs
		untrusted = strings.TrimSpace(fmt.Sprintf("Note: the project is untrusted, so .trestle.json's %s (%s) was not run but the default %s; "+
			"the person can %s. %s", in.Task, QuotedCommand(w.Command), QuotedCommand(t.Command), trust.HowToTrust,
			strings.TrimPrefix(untrusted, "Note: ")))
	}
	return t, untrusted, nil
}

// start starts t for who, its lines to the window and who's progress, and
// tells the window who started it and when it ends. The run outlives ctx.
func (a *Agent) start(ctx context.Context, who Caller, t projconf.Task, args []string, sel projconf.Selection) (*task.Run, error) {
	act := a.cfg.Activity
	run, err := a.cfg.Services.Tasks.Start(context.WithoutCancel(ctx), t, args, sel, func(l task.Line) {
		if act != nil {
			act.RunLine(l)
		}
		if who.Progress != nil {
			who.Progress.Line(l)
		}
	})
	if err != nil {
		return nil, err
	}
	if act != nil {
		act.RunStarted(who.Name(), run)
		go func() { <-run.Done(); act.RunEnded(run) }()
	}
	return run, nil
}

// await waits up to wait for run, or until ctx ends, then closes who's
// progress: what is pending is in the answer, which follows at once.
func (a *Agent) await(ctx context.Context, who Caller, run *task.Run, wait time.Duration) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-run.Done():
	case <-timer.C:
	case <-ctx.Done():
	}
	if who.Progress != nil {
		who.Progress.Close()
	}
}

func checkWait(seconds int) error {
	if seconds < 0 || seconds > MaxRunWait {
		return errdefs.Errorf(errdefs.ErrInvalid, "wait_seconds %d is outside 0..%d", seconds, MaxRunWait)
	}
	return nil
}

// RunStatus is the run id names ("" for the latest), after waiting up to
// waitSeconds for it to end; ErrNotFound when there is none.
func (a *Agent) RunStatus(ctx context.Context, who Caller, id string, waitSeconds int) (*task.Run, error) {
	if err := checkWait(waitSeconds); err != nil {
		return nil, err
	}
	tasks := a.cfg.Services.Tasks
	run := tasks.Last()
	if id != "" {
		var ok bool
		if run, ok = tasks.Get(id); !ok {
			return nil, errdefs.Errorf(errdefs.ErrNotFound, "no run %q; runs are kept for the last 20, see trestle_run", id)
		}
	}
	if run == nil {
		return nil, errdefs.Errorf(errdefs.ErrNotFound, "nothing has run yet; start one with trestle_run")
	}
	if waitSeconds > 0 {
		a.await(ctx, who, run, time.Duration(waitSeconds)*time.Second)
	}
	return run, nil
}

// StopRun stops the running task (its whole process group) for who and
// returns it; ErrNotFound when nothing runs. A run who started may be
// stopped without a second question (it was asked about when it started),
// unless the policy is deny, which always wins; anyone else's run (the
// person's, another agent's) is asked about like a run: stopping it loses
// the work it was doing. Without a task runner it is ErrNotFound.
func (a *Agent) StopRun(ctx context.Context, who Caller) (*task.Run, error) {
	if !a.Offers(OpStopRun) {
		return nil, errdefs.Errorf(errdefs.ErrNotFound, "this server has no task runner to stop")
	}
	run := a.cfg.Services.Tasks.Current()
	if run == nil {
		return nil, errdefs.Errorf(errdefs.ErrNotFound, "no task is running")
	}
	if g := a.cfg.Services.Gate; g != nil && !(a.runs.ownedBy(run, who.Owner) && g.Policy() != permission.PolicyDeny) {
		req := runRequest(run.Task, run.Args, "", projconf.Selection{})
		req.Kind = permission.KindStop
		if err := a.Permit(ctx, who, req); err != nil {
			return nil, err
		}
	}
	return run, a.cfg.Services.Tasks.Stop()
}

// Runnable is what there is to run: the project's configuration (tasks,
// selections, and what an untrusted project withholds), its problem when
// .trestle.json is malformed (the defaults are used), and each
// selection's evaluator state (eval.StateStopped for one never started).
type Runnable struct {
	Config      projconf.Config
	ConfigError error
	Evaluators  map[string]eval.State
}

// Tasks is what there is to run.
func (a *Agent) Tasks() Runnable {
	conf, err := a.config()
	r := Runnable{Config: conf, ConfigError: err, Evaluators: map[string]eval.State{}}
	if ev := a.cfg.Services.Eval; ev != nil {
		for _, st := range ev.Status() {
			r.Evaluators[st.Selection] = st.State
		}
	}
	for _, name := range conf.SelectionNames() {
		if r.Evaluators[name] == "" {
			r.Evaluators[name] = eval.StateStopped
		}
	}
	return r
}

// vetWait bounds how long Vet waits for go vet.
const vetWait = 2 * time.Minute

// Vet runs go vet for who on the package of filter (a project path; ""
// for the whole module) and waits for it, bounded: the gate is asked and
// the window guards unsaved editors and shows the run, as for Run.
func (a *Agent) Vet(ctx context.Context, who Caller, filter string) (*task.Run, error) {
	conf, _ := a.config()
	t, _ := conf.Task("vet")
	t.Name, t.Command = "vet", []string{"go", "vet"}
	pkg := "./..."
	if filter != "" {
		dir := filter
		if path.Ext(filter) != "" {
			dir = path.Dir(filter)
		}
		pkg = "./" + dir
	}
	sel, _ := conf.Selection("default")
	if err := a.Permit(ctx, who, runRequest(t, []string{pkg}, "default", sel)); err != nil {
		return nil, err
	}
	if _, err := a.BeforeRun(ctx, who, CommandLine(t, []string{pkg})); err != nil {
		return nil, err
	}
	who.Progress = nil // vet's lines go to the window only
	run, err := a.start(ctx, who, t, []string{pkg}, sel)
	if err != nil {
		return nil, err
	}
	a.await(ctx, who, run, vetWait)
	return run, nil
}

// runOwners remembers which caller started each agent run, while it runs.
// The zero value is ready; safe for concurrent use.
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
