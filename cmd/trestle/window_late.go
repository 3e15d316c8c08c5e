package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"trestle/app/changeset"
	"trestle/app/eval"
	"trestle/app/permission"
	"trestle/app/project"
	"trestle/app/task"
	"trestle/app/workbench"
	"trestle/ui"
)

// lateWindow is the window as its listener reaches it: the listener starts
// before ui.New has built the window, so that an agent that attaches while
// the window starts is through its greeting and initialize by the time the
// window can answer, and its first call waits in the main goroutine's
// queue rather than behind the window's first frame. Every method waits
// until set has handed it the window, except the status bar's (SetListener
// and SetClients), which keep the last update and show it then: a
// connection's bookkeeping must not wait for the window. Safe for
// concurrent use.
type lateWindow struct {
	ready chan struct{} // closed by set
	mu    sync.Mutex
	w     *ui.Window // nil until set
	// listener and clients are the last status updates before set; nil
	// when there was none.
	listener func(*ui.Window)
	clients  func(*ui.Window)
}

// newLateWindow is a lateWindow waiting for its window.
func newLateWindow() *lateWindow { return &lateWindow{ready: make(chan struct{})} }

// set hands l the window and shows the status updates made before it.
// Call it once.
func (l *lateWindow) set(w *ui.Window) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w = w
	for _, show := range []func(*ui.Window){l.listener, l.clients} {
		if show != nil {
			show(w)
		}
	}
	l.listener, l.clients = nil, nil
	close(l.ready)
}

// win waits for the window.
func (l *lateWindow) win() *ui.Window {
	<-l.ready
	return l.w
}

// winFor waits for the window, or until ctx ends.
func (l *lateWindow) winFor(ctx context.Context) (*ui.Window, error) {
	select {
	case <-l.ready:
		return l.w, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("the window is still starting: %w", ctx.Err())
	}
}

// SetListener is ui.Window's, or kept for set.
func (l *lateWindow) SetListener(addr string, err error) {
	l.status(func(w *ui.Window) { w.SetListener(addr, err) }, &l.listener)
}

// SetClients is ui.Window's, or kept for set.
func (l *lateWindow) SetClients(clients []workbench.Client, connecting int) {
	l.status(func(w *ui.Window) { w.SetClients(clients, connecting) }, &l.clients)
}

// status shows an update now, or keeps it in *last until set.
func (l *lateWindow) status(show func(*ui.Window), last *func(*ui.Window)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w == nil {
		*last = show
		return
	}
	show(l.w)
}

// The window's methods that agents' tools use (workbench.Window,
// agent.Activity, agent.RunGuard), the call list, the permission gate's
// question and the test hooks, each once the window is there; those with
// a context give up with an error when it ends first.

func (l *lateWindow) Tabs(ctx context.Context) ([]workbench.Tab, error) {
	w, err := l.winFor(ctx)
	if err != nil {
		return nil, err
	}
	return w.Tabs(ctx)
}
func (l *lateWindow) Open(ctx context.Context, path project.Path, line int) error {
	w, err := l.winFor(ctx)
	if err != nil {
		return err
	}
	return w.Open(ctx, path, line)
}
func (l *lateWindow) Buffer(ctx context.Context, path project.Path) (string, bool, bool, error) {
	w, err := l.winFor(ctx)
	if err != nil {
		return "", false, false, err
	}
	return w.Buffer(ctx, path)
}
func (l *lateWindow) Selection(ctx context.Context) (workbench.EditorSelection, error) {
	w, err := l.winFor(ctx)
	if err != nil {
		return workbench.EditorSelection{}, err
	}
	return w.Selection(ctx)
}
func (l *lateWindow) SelectRange(ctx context.Context, path project.Path, startLine, startCol, endLine, endCol int) error {
	w, err := l.winFor(ctx)
	if err != nil {
		return err
	}
	return w.SelectRange(ctx, path, startLine, startCol, endLine, endCol)
}
func (l *lateWindow) Output(ctx context.Context, pane string, tail int) (string, error) {
	w, err := l.winFor(ctx)
	if err != nil {
		return "", err
	}
	return w.Output(ctx, pane, tail)
}
func (l *lateWindow) Notice(ctx context.Context, client, message string) error {
	w, err := l.winFor(ctx)
	if err != nil {
		return err
	}
	return w.Notice(ctx, client, message)
}
func (l *lateWindow) BeforeRun(ctx context.Context, client, command string) (string, error) {
	w, err := l.winFor(ctx)
	if err != nil {
		return "", err
	}
	return w.BeforeRun(ctx, client, command)
}
func (l *lateWindow) Ask(ctx context.Context, req permission.Request) (permission.Decision, error) {
	w, err := l.winFor(ctx)
	if err != nil {
		return permission.Deny, err
	}
	return w.Ask(ctx, req)
}
func (l *lateWindow) ApplyAsPerson(ctx context.Context, id string) error {
	w, err := l.winFor(ctx)
	if err != nil {
		return err
	}
	return w.ApplyAsPerson(ctx, id)
}

// Without a context: the activity an agent's evaluation, run or proposal
// shows, and its calls.

func (l *lateWindow) EvalDone(client, selection, code string, res eval.Result, err error) {
	l.win().EvalDone(client, selection, code, res, err)
}
func (l *lateWindow) RunStarted(client string, run *task.Run)  { l.win().RunStarted(client, run) }
func (l *lateWindow) RunLine(line task.Line)                   { l.win().RunLine(line) }
func (l *lateWindow) RunEnded(run *task.Run)                   { l.win().RunEnded(run) }
func (l *lateWindow) ChangeSetProposed(cs changeset.ChangeSet) { l.win().ChangeSetProposed(cs) }
func (l *lateWindow) RecordCall(c workbench.ToolCall)          { l.win().RecordCall(c) }
func (l *lateWindow) Stall(d time.Duration)                    { l.win().Stall(d) }

// Raise is ui.Window's, once the window is there: a focus request that
// comes while the window is still being made waits for it up to the
// window's call bound, then says it is still starting.
func (l *lateWindow) Raise() error {
	ctx, cancel := context.WithTimeout(context.Background(), ui.DefaultCallBound)
	defer cancel()
	w, err := l.winFor(ctx)
	if err != nil {
		return err
	}
	return w.Raise()
}
