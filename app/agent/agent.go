package agent

import (
	"context"

	"trestle/app/changeset"
	"trestle/app/eval"
	"trestle/app/projconf"
	"trestle/app/project"
	"trestle/app/services"
	"trestle/app/task"
	"trestle/app/workbench"
)

// Config is what an Agent works on.
type Config struct {
	Project *project.Project
	// Window is what the person sees; nil without a window (--mcp), where
	// the operations that need one are not offered.
	Window workbench.Window
	// Services are the evaluator, tasks, change sets, gopls and the
	// permission gate; an operation whose service is nil is not offered.
	Services services.Services
	// Activity shows agents' evaluations, runs and proposals in the
	// window; nil headless.
	Activity Activity
}

// Agent is the workbench as agents reach it, whatever protocol they speak:
// each exported method is one operation an agent may ask for, taking the
// Caller who asks. Safe for concurrent use.
type Agent struct {
	cfg    Config
	runs   runOwners  // which caller started each agent run
	losses lossesTold // lost evaluator state the answers have named
	git    gitCache   // the workbench's git status, reused briefly

	sums project.Sums // what trestle_read hashed, per file version
}

// New is an Agent over cfg.
func New(cfg Config) *Agent { return &Agent{cfg: cfg} }

// Project is the project the agent works on.
func (a *Agent) Project() *project.Project { return a.cfg.Project }

// Services are the agent's services.
func (a *Agent) Services() services.Services { return a.cfg.Services }

// Caller is who asks for an operation: the session identity a protocol
// adapter gives each call.
type Caller struct {
	// Client is the name the client gave (MCP's clientInfo.name), shown to
	// the person; "" reads as "an agent".
	Client string
	// Session is the protocol session's id, the key of the person's "Allow
	// for this session" grant.
	Session string
	// Owner is unique to the connection in this process and any other,
	// and never chosen by the client: what a caller proposes or runs is
	// its own, to withdraw or stop.
	Owner string
	// Progress hears how a long operation goes; nil when the caller asked
	// for none.
	Progress Progress
}

// Name is the caller's name as the person reads it.
func (c Caller) Name() string {
	if c.Client == "" {
		return "an agent"
	}
	return c.Client
}

// Progress hears how a long operation goes. Its methods are called from
// any goroutine and must not block.
type Progress interface {
	// Line is a line of a run's output.
	Line(task.Line)
	// Note is one message: a worker build, a wait that goes on.
	Note(msg string)
	// Close says the operation's wait is over: its answer follows at once,
	// and nothing more should be sent.
	Close()
}

// Activity hears of the evaluations, runs and proposals agents make, so
// the window shows them in plain view. The ui package implements it; the
// headless server has none. Methods are called from serving goroutines and
// must not block.
type Activity interface {
	EvalDone(client, selection, code string, res eval.Result, err error)
	RunStarted(client string, run *task.Run)
	RunLine(line task.Line)
	RunEnded(run *task.Run)
	ChangeSetProposed(cs changeset.ChangeSet)
}

// RunGuard is an Activity that keeps runs off text the person has not
// saved: before an agent's run the window saves its unsaved editors, or
// asks the person, as their setting says. BeforeRun returns what it did,
// for the run's answer ("" for nothing), or an error that stops the run
// (refused, busy). It may wait for the person, bounded; called from
// serving goroutines.
type RunGuard interface {
	BeforeRun(ctx context.Context, client, command string) (note string, err error)
}

// reader reads files as agents read them: the window's open editors first,
// else disk.
func (a *Agent) reader() workbench.Reader {
	return workbench.Reader{Project: a.cfg.Project, Buffers: a.cfg.Window, Sums: &a.sums} // a nil Window is nil Buffers
}

// config is the project's configuration; a malformed file still gives the
// defaults, and the problem is returned for the caller to mention.
func (a *Agent) config() (projconf.Config, error) {
	return a.cfg.Services.ProjectConfig()
}
