package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"sync"
	"time"

	"trestle/app/project"
	"trestle/app/services"
	"trestle/app/workbench"
	"trestle/mcpbridge"
	"trestle/registry"
	"trestle/ui"
)

// listenerStatus is where the window shows the listener and its clients:
// the status bar (ui.Window), or a recorder in tests. Safe for concurrent use.
type listenerStatus interface {
	SetListener(addr string, err error)
	SetClients(clients []workbench.Client, connecting int)
}

// entryCheck is how often a running listener checks that its registry
// entry is still there: a probe from another process that timed out on a
// loaded machine may have reaped it, and agents would not find the window.
const entryCheck = 10 * time.Second

// Restarting a listener that died backs off from restartMin to restartMax:
// a socket that dies at once again should not spin.
const (
	restartMin = time.Second
	restartMax = 30 * time.Second
)

// windowListener is the window's MCP listener and its registry entry,
// which the person can turn off and on. A listener that dies is restarted
// (new port, new token, new entry) while it is on. Safe for concurrent use.
type windowListener struct {
	ctx     context.Context
	project *project.Project
	status  listenerStatus
	reg     *registry.Registry
	logger  *log.Logger
	srv     *mcpbridge.Server
	// listen makes a listener for a token (srv.Listen; tests replace it).
	listen func(token string) (*mcpbridge.Listener, error)
	// entryEvery is how often the entry is checked (entryCheck; tests shorten it).
	entryEvery time.Duration

	mu   sync.Mutex
	on   bool                // the person wants it on
	dead bool                // it died and a restart is pending
	l    *mcpbridge.Listener // nil when off or dead
}

// The window serves as the tools' Activity, and guards agents' runs
// against unsaved editors.
var (
	_ mcpbridge.Activity = (*ui.Window)(nil)
	_ mcpbridge.RunGuard = (*ui.Window)(nil)
)

func newWindowListener(ctx context.Context, project *project.Project, win *ui.Window, sv services.Services, reg *registry.Registry, logger *log.Logger) *windowListener {
	if _, err := reg.Reap(); err != nil {
		logger.Print(err)
	}
	opts := mcpbridge.Options{Project: project, Window: win, Version: version, Logger: logger,
		Services: sv, Activity: win, OnCall: win.RecordCall}
	if os.Getenv("TRESTLE_TEST_HOOKS") == "1" {
		opts.Stall = win.Stall
		opts.ApplyAsPerson = win.ApplyAsPerson
	}
	srv := mcpbridge.NewServer(opts)
	return &windowListener{ctx: ctx, project: project, status: win, reg: reg, logger: logger, srv: srv, listen: srv.Listen}
}

// set turns the listener on or off.
func (w *windowListener) set(on bool) {
	if on {
		w.start()
	} else {
		w.stop()
	}
}

// start serves the window's tools on loopback and writes the registry entry
// that --mcp-attach finds. The window keeps working when this fails; the
// status bar says why.
func (w *windowListener) start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.on = true
	w.startLocked()
}

// startLocked starts a listener unless one runs, and reports whether one
// runs now. w.mu must be held.
func (w *windowListener) startLocked() bool {
	if w.l != nil {
		return true
	}
	token, err := mcpbridge.NewToken()
	var l *mcpbridge.Listener
	if err == nil {
		l, err = w.listen(token)
	}
	if err != nil {
		w.status.SetListener("", err)
		return false
	}
	l.OnClients = w.status.SetClients
	go w.serve(l)
	entry := registry.Entry{PID: os.Getpid(), Port: l.Port(), Dir: w.project.Root, Token: token,
		Started: time.Now(), Version: version}
	if err := w.reg.Write(entry); err != nil {
		w.status.SetListener(l.Addr(), fmt.Errorf("agents cannot find this window: %w", err))
	} else {
		w.status.SetListener(l.Addr(), nil)
	}
	w.l, w.dead = l, false
	go w.keepEntry(l, entry)
	return true
}

// keepEntry writes entry again whenever it has gone while l still serves.
func (w *windowListener) keepEntry(l *mcpbridge.Listener, entry registry.Entry) {
	every := w.entryEvery
	if every == 0 {
		every = entryCheck
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-w.ctx.Done():
			return
		}
		w.mu.Lock()
		if w.l != l {
			w.mu.Unlock()
			return
		}
		if !w.reg.Has(entry.PID) {
			w.logger.Printf("mcp: the registry entry for this window was removed; writing it again")
			if err := w.reg.Write(entry); err != nil {
				w.logger.Print(err)
			}
		}
		w.mu.Unlock()
	}
}

// serve runs l until it is closed, or until it dies: then the registry
// entry goes (agents must not be sent to a dead port), the status bar says
// so, and a new listener is started, backing off while that fails.
func (w *windowListener) serve(l *mcpbridge.Listener) {
	err := l.Serve(w.ctx)
	if err == nil || w.ctx.Err() != nil {
		return
	}
	w.logger.Printf("mcp: %v; restarting the listener", err)
	w.mu.Lock()
	if w.l != l { // turned off meanwhile
		w.mu.Unlock()
		return
	}
	w.l, w.dead = nil, true
	if err := w.reg.Remove(os.Getpid()); err != nil {
		w.logger.Print(err)
	}
	w.mu.Unlock()
	l.Close()
	w.status.SetClients(nil, 0)
	w.status.SetListener("", fmt.Errorf("the listener stopped (%v); restarting", err))
	for delay := restartMin; ; delay = min(2*delay, restartMax) {
		select {
		case <-time.After(delay):
		case <-w.ctx.Done():
			return
		}
		w.mu.Lock()
		ok := !w.on || w.startLocked()
		w.mu.Unlock()
		if ok {
			return
		}
	}
}

// stop closes the listener, every attached session and the registry entry.
func (w *windowListener) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.on = false
	if w.l == nil && !w.dead {
		return
	}
	w.dead = false
	if w.l != nil {
		if err := w.reg.Remove(os.Getpid()); err != nil {
			w.logger.Print(err)
		}
		w.l.Close()
		w.l = nil
	}
	w.status.SetListener("", nil)
	w.status.SetClients(nil, 0)
}
