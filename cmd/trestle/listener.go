package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"sync"
	"time"

	"trestle/app"
	"trestle/app/services"
	"trestle/mcpbridge"
	"trestle/registry"
	"trestle/ui"
)

// windowListener is the window's MCP listener and its registry entry,
// which the person can turn off and on. Safe for concurrent use.
type windowListener struct {
	ctx     context.Context
	project *app.Project
	win     *ui.Window
	reg     *registry.Registry
	logger  *log.Logger
	srv     *mcpbridge.Server

	mu sync.Mutex
	l  *mcpbridge.Listener // nil when off
}

func newWindowListener(ctx context.Context, project *app.Project, win *ui.Window, sv services.Services, reg *registry.Registry, logger *log.Logger) *windowListener {
	if _, err := reg.Reap(); err != nil {
		logger.Print(err)
	}
	opts := mcpbridge.Options{Project: project, Window: win, Version: version, Logger: logger,
		Services: sv, Activity: win, OnCall: win.RecordCall}
	if os.Getenv("TRESTLE_TEST_HOOKS") == "1" {
		opts.Stall = win.Stall
		opts.ApplyAsPerson = win.ApplyAsPerson
	}
	return &windowListener{ctx: ctx, project: project, win: win, reg: reg, logger: logger, srv: mcpbridge.NewServer(opts)}
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
	if w.l != nil {
		return
	}
	token, err := mcpbridge.NewToken()
	var l *mcpbridge.Listener
	if err == nil {
		l, err = w.srv.Listen(token)
	}
	if err != nil {
		w.win.SetListener("", err)
		return
	}
	l.OnClients = w.win.SetClients
	go func() {
		if err := l.Serve(w.ctx); err != nil {
			w.logger.Print(err)
		}
	}()
	entry := registry.Entry{PID: os.Getpid(), Port: l.Port(), Dir: w.project.Root, Token: token,
		Started: time.Now(), Version: version}
	if err := w.reg.Write(entry); err != nil {
		w.win.SetListener(l.Addr(), fmt.Errorf("agents cannot find this window: %w", err))
	} else {
		w.win.SetListener(l.Addr(), nil)
	}
	w.l = l
}

// stop closes the listener, every attached session and the registry entry.
func (w *windowListener) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.l == nil {
		return
	}
	if err := w.reg.Remove(os.Getpid()); err != nil {
		w.logger.Print(err)
	}
	w.l.Close()
	w.l = nil
	w.win.SetListener("", nil)
	w.win.SetClients(nil)
}
