package permission

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"trestle/app/errdefs"
)

// Decision is the person's answer to an agent's request to run code.
type Decision int

const (
	Deny         Decision = iota // no, or no answer in time
	AllowOnce                    // this request only
	AllowSession                 // this and every later request of the same client session, while the policy stays ask
)

// Request is an agent asking to evaluate code or run a task.
// Everything that decides what runs is in it, so the person sees all of it.
type Request struct {
	Client  string // the client's name from initialize
	Session string // the MCP session id
	Kind    string // "evaluate", "run", KindRestart or KindStop
	Detail  string // the code, or the command line

	Selection string   // the .trestle.json selection it runs under
	Env       []string // "NAME=value" the selection adds to the environment, sorted
	Tags      []string // build tags the selection adds
	Dir       string   // a run's working folder, project-relative ("" for the root)
	Preload   []string // packages an evaluator imports (and so initialises) first
	// Initialises lists the project's packages the evaluation imports,
	// directly or not: their init code runs.
	Initialises []string
}

// KindRestart is a Request to restart an evaluator, which drops its state
// (the person's variables too).
const KindRestart = "restart"

// KindStop is a Request to stop a running task the caller did not start
// (the person's, or another agent's); Detail is its command line.
const KindStop = "stop"

// ErrNobodyToAsk is what an ask function returns when it has nobody to
// put this request to (a client without a way to ask its user): the gate
// then refuses as it does with no ask function at all.
var ErrNobodyToAsk = errors.New("nobody is there to ask")

// Gate applies a project's agent permission policy to evaluations and runs
// agents ask for: allow, deny, or ask the person (through Ask). deny always
// wins: over a grant for the session and over an answer the person gave
// after the policy changed. Safe for concurrent use.
type Gate struct {
	ask func(context.Context, Request) (Decision, error)

	mu       sync.Mutex
	policy   string
	sessions map[string]bool // sessions allowed while the policy stays ask
	// epoch counts policy changes and forgotten sessions: an answer to a
	// dialog shown before either becomes no grant.
	epoch uint64
}

// NewGate returns a gate with policy (PolicyAsk when empty). ask shows the
// person the request; nil means there is nobody to ask, so ask denies.
func NewGate(policy string, ask func(context.Context, Request) (Decision, error)) *Gate {
	g := &Gate{ask: ask, sessions: map[string]bool{}}
	g.SetPolicy(policy)
	return g
}

// SetAsk sets who the gate asks, as NewGate's ask does: a window made
// after the services it is given (and so after their gate) hands the gate
// its dialog here. Until then the gate asks nobody.
func (g *Gate) SetAsk(ask func(context.Context, Request) (Decision, error)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ask = ask
}

// SetPolicy changes the policy; an unknown one is PolicyAsk. A change drops
// every "Allow for this session" grant: going back to ask asks again.
func (g *Gate) SetPolicy(policy string) {
	if !ValidPolicy(policy) {
		policy = PolicyAsk
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if policy == g.policy {
		return
	}
	g.policy = policy
	clear(g.sessions)
	g.epoch++
}

// Policy is the policy in force.
func (g *Gate) Policy() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.policy
}

// Check returns nil when req may go ahead, else an error wrapping
// ErrRefused that says why.
func (g *Gate) Check(ctx context.Context, req Request) error {
	g.mu.Lock()
	policy, allowed, epoch, ask := g.policy, g.sessions[req.Session], g.epoch, g.ask
	g.mu.Unlock()
	switch {
	case policy == PolicyDeny:
		return errDenied(req)
	case policy == PolicyAllow, allowed:
		return nil
	case ask == nil:
		return errNobody(req)
	}
	d, err := ask(ctx, req)
	if errors.Is(err, ErrNobodyToAsk) {
		return errNobody(req)
	}
	if err != nil {
		return fmt.Errorf("ask the person about this %s request: %v: %w", req.Kind, err, errdefs.ErrRefused)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.policy == PolicyDeny {
		return errDenied(req)
	}
	switch d {
	case AllowSession:
		if req.Session != "" && g.epoch == epoch && g.policy == PolicyAsk {
			g.sessions[req.Session] = true
		}
		return nil
	case AllowOnce:
		return nil
	}
	return fmt.Errorf("the person denied this %s request (or did not answer in time): %w", req.Kind, errdefs.ErrRefused)
}

func errNobody(req Request) error {
	return fmt.Errorf("nobody is there to approve this %s request: %w", req.Kind, errdefs.ErrRefused)
}

func errDenied(req Request) error {
	return fmt.Errorf("this project's policy denies agent %s requests (the person can change it in Settings): %w", req.Kind, errdefs.ErrRefused)
}

// Forget drops what a session was allowed; the MCP server calls it when a
// session ends and when one begins (an id may be given out again).
func (g *Gate) Forget(session string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.sessions, session)
	g.epoch++
}

// Granted reports whether session holds an "Allow for this session" grant.
func (g *Gate) Granted(session string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.sessions[session]
}
