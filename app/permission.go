package app

import (
	"context"
	"fmt"
	"sync"
)

// Decision is the person's answer to an agent's request to run code.
type Decision int

const (
	Deny         Decision = iota // no, or no answer in time
	AllowOnce                    // this request only
	AllowSession                 // this and every later request of the same client session
)

// PermissionRequest is an agent asking to evaluate code or run a task.
type PermissionRequest struct {
	Client  string // the client's name from initialize
	Session string // the MCP session id
	Kind    string // "evaluate" or "run"
	Detail  string // the code, or the command line
}

// Gate applies a project's agent permission policy to evaluations and runs
// agents ask for: allow, deny, or ask the person (through Ask). Safe for
// concurrent use.
type Gate struct {
	ask func(context.Context, PermissionRequest) (Decision, error)

	mu       sync.Mutex
	policy   string
	sessions map[string]bool // sessions allowed for the rest of their life
}

// NewGate returns a gate with policy (PolicyAsk when empty). ask shows the
// person the request; nil means there is nobody to ask, so ask denies.
func NewGate(policy string, ask func(context.Context, PermissionRequest) (Decision, error)) *Gate {
	g := &Gate{ask: ask, sessions: map[string]bool{}}
	g.SetPolicy(policy)
	return g
}

// SetPolicy changes the policy; an unknown one is PolicyAsk.
func (g *Gate) SetPolicy(policy string) {
	if !ValidPolicy(policy) {
		policy = PolicyAsk
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.policy = policy
}

// Policy is the policy in force.
func (g *Gate) Policy() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.policy
}

// Check returns nil when req may go ahead, else an error wrapping
// ErrRefused that says why.
func (g *Gate) Check(ctx context.Context, req PermissionRequest) error {
	g.mu.Lock()
	policy, allowed := g.policy, g.sessions[req.Session]
	g.mu.Unlock()
	switch {
	case policy == PolicyAllow || allowed:
		return nil
	case policy == PolicyDeny:
		return fmt.Errorf("this project's policy denies agent %s requests (the person can change it in Settings): %w", req.Kind, ErrRefused)
	case g.ask == nil:
		return fmt.Errorf("nobody is there to approve this %s request: %w", req.Kind, ErrRefused)
	}
	d, err := g.ask(ctx, req)
	if err != nil {
		return fmt.Errorf("ask the person about this %s request: %v: %w", req.Kind, err, ErrRefused)
	}
	switch d {
	case AllowSession:
		g.mu.Lock()
		g.sessions[req.Session] = true
		g.mu.Unlock()
		return nil
	case AllowOnce:
		return nil
	}
	return fmt.Errorf("the person denied this %s request (or did not answer in time): %w", req.Kind, ErrRefused)
}

// Forget drops what a session was allowed, when it ends.
func (g *Gate) Forget(session string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.sessions, session)
}
