package acp

import (
	"context"
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"trestle/app/procgroup"
	"trestle/app/sandbox"
)

// defaultOutputLimit bounds a terminal's kept output when the agent sets
// no outputByteLimit: the end is kept, the start dropped.
const defaultOutputLimit = 1 << 20

// terminal is one command an agent runs through terminal/create, inside
// the session's sandbox, in its own process group.
type terminal struct {
	id   string
	cmd  *exec.Cmd
	done chan struct{} // closed when the command has exited
	// show receives the output as it comes and the exit (Options.OnTerminal); may be nil.
	show func(TerminalEvent)

	mu        sync.Mutex
	out       []byte
	limit     int
	truncated bool
	exit      *sdk.TerminalExitStatus
	// partial is the start of a character the last write cut, held back from show.
	partial []byte
}

// TerminalEvent is news of a command an agent runs through terminal/*:
// it started (Command set), printed (Output, whole characters of stdout
// and stderr as they came) or exited (Exit set).
type TerminalEvent struct {
	ID      string
	Command string
	Output  string
	Exit    *sdk.TerminalExitStatus
}

// Write keeps the last limit bytes of output, cut at a character boundary,
// and shows what came.
func (t *terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.show != nil {
		chunk := append(t.partial, p...)
		whole := len(chunk)
		for i := len(chunk) - 1; i >= 0 && i >= len(chunk)-utf8.UTFMax; i-- {
			if utf8.RuneStart(chunk[i]) {
				if !utf8.FullRune(chunk[i:]) {
					whole = i
				}
				break
			}
		}
		t.partial = append([]byte(nil), chunk[whole:]...)
		if whole > 0 {
			t.show(TerminalEvent{ID: t.id, Output: string(chunk[:whole])})
		}
	}
	t.out = append(t.out, p...)
	if over := len(t.out) - t.limit; over > 0 {
		for over < len(t.out) && !utf8.RuneStart(t.out[over]) {
			over++
		}
		t.out = append(t.out[:0], t.out[over:]...)
		t.truncated = true
	}
	return len(p), nil
}

// CreateTerminal starts the command inside the sandbox.
func (c *client) CreateTerminal(ctx context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	dir := ""
	if p.Cwd != nil && *p.Cwd != "" {
		rel, err := c.stageRel("run in", *p.Cwd)
		if err != nil {
			return sdk.CreateTerminalResponse{}, err
		}
		dir = c.s.opts.Stage.Dir + "/" + rel
	}
	env := make([]string, 0, len(p.Env))
	for _, e := range p.Env {
		env = append(env, e.Name+"="+e.Value)
	}
	cmd, err := sandbox.Command(context.Background(), c.s.opts.Stage, c.s.opts.Sandbox, dir, env, p.Command, p.Args...)
	if err != nil {
		return sdk.CreateTerminalResponse{}, refused("run %s: %v", p.Command, err)
	}
	t := &terminal{cmd: cmd, done: make(chan struct{}), limit: defaultOutputLimit, show: c.s.opts.OnTerminal}
	if p.OutputByteLimit != nil && *p.OutputByteLimit >= 0 {
		t.limit = *p.OutputByteLimit
	}
	cmd.Stdout, cmd.Stderr = t, t
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return sdk.CreateTerminalResponse{}, refused("run %s: %v", p.Command, errClosed)
	}
	c.nextTerm++
	t.id = "term-" + strconv.Itoa(c.nextTerm)
	if t.show != nil {
		t.show(TerminalEvent{ID: t.id, Command: strings.Join(append([]string{p.Command}, p.Args...), " ")})
	}
	if err := cmd.Start(); err != nil {
		if t.show != nil {
			code := -1
			t.show(TerminalEvent{ID: t.id, Output: err.Error(), Exit: &sdk.TerminalExitStatus{ExitCode: &code}})
		}
		return sdk.CreateTerminalResponse{}, refused("run %s: %v", p.Command, err)
	}
	go func() {
		err := cmd.Wait()
		t.mu.Lock()
		t.exit = exitStatus(cmd, err)
		if t.show != nil {
			t.show(TerminalEvent{ID: t.id, Output: string(t.partial), Exit: t.exit})
		}
		t.mu.Unlock()
		close(t.done)
	}()
	id := t.id
	c.terminals[id] = t
	return sdk.CreateTerminalResponse{TerminalId: id}, nil
}

// exitStatus is how cmd ended.
func exitStatus(cmd *exec.Cmd, err error) *sdk.TerminalExitStatus {
	st := &sdk.TerminalExitStatus{}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		code := -1
		st.ExitCode = &code
		return st
	}
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		sig := ws.Signal().String()
		st.Signal = &sig
		return st
	}
	code := cmd.ProcessState.ExitCode()
	st.ExitCode = &code
	return st
}

func (c *client) terminal(id string) (*terminal, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.terminals[id]
	if !ok {
		return nil, errNoTerminal(id)
	}
	return t, nil
}

// TerminalOutput returns the output so far and the exit status once exited.
func (c *client) TerminalOutput(ctx context.Context, p sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	t, err := c.terminal(p.TerminalId)
	if err != nil {
		return sdk.TerminalOutputResponse{}, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return sdk.TerminalOutputResponse{Output: string(t.out), Truncated: t.truncated, ExitStatus: t.exit}, nil
}

// WaitForTerminalExit waits for the command to exit.
func (c *client) WaitForTerminalExit(ctx context.Context, p sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	t, err := c.terminal(p.TerminalId)
	if err != nil {
		return sdk.WaitForTerminalExitResponse{}, err
	}
	select {
	case <-t.done:
	case <-ctx.Done():
		return sdk.WaitForTerminalExitResponse{}, ctx.Err()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return sdk.WaitForTerminalExitResponse{ExitCode: t.exit.ExitCode, Signal: t.exit.Signal}, nil
}

// KillTerminal kills the command's process group; the terminal stays for its output.
func (c *client) KillTerminal(ctx context.Context, p sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	t, err := c.terminal(p.TerminalId)
	if err != nil {
		return sdk.KillTerminalResponse{}, err
	}
	procgroup.Kill(t.cmd)
	return sdk.KillTerminalResponse{}, nil
}

// ReleaseTerminal kills the command if it still runs and forgets the terminal.
func (c *client) ReleaseTerminal(ctx context.Context, p sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	c.mu.Lock()
	t, ok := c.terminals[p.TerminalId]
	delete(c.terminals, p.TerminalId)
	c.mu.Unlock()
	if !ok {
		return sdk.ReleaseTerminalResponse{}, errNoTerminal(p.TerminalId)
	}
	procgroup.Kill(t.cmd)
	return sdk.ReleaseTerminalResponse{}, nil
}

// killTerminals kills every terminal's process group; after it no terminal is created.
func (c *client) killTerminals() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.terminals {
		procgroup.Kill(t.cmd)
	}
}

// waitTerminals closes the session's terminals and waits for each to exit.
func (c *client) waitTerminals() {
	c.mu.Lock()
	c.closed = true
	ts := make([]*terminal, 0, len(c.terminals))
	for _, t := range c.terminals {
		procgroup.Kill(t.cmd)
		ts = append(ts, t)
	}
	c.mu.Unlock()
	for _, t := range ts {
		<-t.done
	}
	if c.root != nil {
		c.root.Close()
	}
}
