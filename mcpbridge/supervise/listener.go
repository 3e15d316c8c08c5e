package supervise

import (
	"context"
	"fmt"
	"log"
	"os"
	"sync"
	"time"

	"trestle/app/workbench"
	"trestle/mcpbridge"
	"trestle/registry"
)

// Status is where the window shows the listener and its clients: the
// status bar (ui.Window), or a recorder in tests. Its methods must be safe
// for concurrent use.
type Status interface {
	SetListener(addr string, err error)
	SetClients(clients []workbench.Client, connecting int)
}

// EntryCheck is how often a running listener checks that its registry
// entry is still there: a probe from another process that timed out on a
// loaded machine may have reaped it, and agents would not find the window.
const EntryCheck = 10 * time.Second

// Restarting a listener that died backs off from restartMin to restartMax:
// a socket that dies at once again should not spin.
const (
	restartMin = time.Second
	restartMax = 30 * time.Second
)

// Config is what a Listener serves, where it registers and whom it tells.
type Config struct {
	// Dir is the project's root, recorded in the registry entry.
	Dir string
	// Version is Trestle's version, recorded in the registry entry.
	Version string
	// Status shows the listener's address or failure, and its clients.
	Status Status
	// Registry is where the entry goes that --mcp-attach finds.
	Registry *registry.Registry
	// Logger logs what the person is not shown (never to stdout).
	Logger *log.Logger
	// Listen makes a listener for a token: the server's Listen (tests
	// hand in sockets of their own).
	Listen func(token string) (*mcpbridge.Listener, error)
	// EntryEvery is how often a running listener checks its registry
	// entry; 0 means EntryCheck (tests shorten it).
	EntryEvery time.Duration
	// Switch is the person's on and off, which the listener follows until
	// its ctx ends; nil: only Start and Stop turn it.
	Switch *Switch
}

// Listener is the window's MCP listener and its registry entry, which the
// person can turn off and on. A listener that dies is restarted (new port,
// new token, new entry) while it is on. Safe for concurrent use.
type Listener struct {
	ctx context.Context
	cfg Config

	mu   sync.Mutex
	on   bool                // the person wants it on
	dead bool                // it died and a restart is pending
	l    *mcpbridge.Listener // nil when off or dead
}

// New returns a listener that is off, for the process's lifetime ctx: it
// stops serving, restarting and following cfg.Switch when ctx ends. It
// reaps the registry's entries of processes that are gone.
func New(ctx context.Context, cfg Config) *Listener {
	if _, err := cfg.Registry.Reap(); err != nil {
		cfg.Logger.Print(err)
	}
	if cfg.EntryEvery == 0 {
		cfg.EntryEvery = EntryCheck
	}
	l := &Listener{ctx: ctx, cfg: cfg}
	if cfg.Switch != nil {
		go l.follow(cfg.Switch)
	}
	return l
}

// follow turns the listener on and off as s says, a wish at a time, until
// ctx ends.
func (w *Listener) follow(s *Switch) {
	for {
		select {
		case on := <-s.wish:
			w.Set(on)
		case <-w.ctx.Done():
			return
		}
	}
}

// Set turns the listener on or off.
func (w *Listener) Set(on bool) {
	if on {
		w.Start()
	} else {
		w.Stop()
	}
}

// Start serves the window's tools on loopback and writes the registry entry
// that --mcp-attach finds. The window keeps working when this fails; the
// status bar says why.
func (w *Listener) Start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.on = true
	w.startLocked()
}

// startLocked starts a listener unless one runs, and reports whether one
// runs now. w.mu must be held.
func (w *Listener) startLocked() bool {
	if w.l != nil {
		return true
	}
	token, err := mcpbridge.NewToken()
	var l *mcpbridge.Listener
	if err == nil {
		l, err = w.cfg.Listen(token)
	}
	if err != nil {
		w.cfg.Status.SetListener("", err)
		return false
	}
	l.OnClients = w.cfg.Status.SetClients
	go w.serve(l)
	entry := registry.Entry{PID: os.Getpid(), Port: l.Port(), Dir: w.cfg.Dir, Token: token,
		Started: time.Now(), Version: w.cfg.Version}
	if err := w.cfg.Registry.Write(entry); err != nil {
		w.cfg.Status.SetListener(l.Addr(), fmt.Errorf("agents cannot find this window: %w", err))
	} else {
		w.cfg.Status.SetListener(l.Addr(), nil)
	}
	w.l, w.dead = l, false
	go w.keepEntry(l, entry)
	return true
}

// keepEntry writes entry again whenever it has gone while l still serves.
func (w *Listener) keepEntry(l *mcpbridge.Listener, entry registry.Entry) {
	t := time.NewTicker(w.cfg.EntryEvery)
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
		if !w.cfg.Registry.Has(entry.PID) {
			w.cfg.Logger.Printf("mcp: the registry entry for this window was removed; writing it again")
			if err := w.cfg.Registry.Write(entry); err != nil {
				w.cfg.Logger.Print(err)
			}
		}
		w.mu.Unlock()
	}
}

// serve runs l until it is closed, or until it dies: then the registry
// entry goes (agents must not be sent to a dead port), the status bar says
// so, and a new listener is started, backing off while that fails.
func (w *Listener) serve(l *mcpbridge.Listener) {
	err := l.Serve(w.ctx)
	if err == nil || w.ctx.Err() != nil {
		return
	}
	w.cfg.Logger.Printf("mcp: %v; restarting the listener", err)
	w.mu.Lock()
	if w.l != l { // turned off meanwhile
		w.mu.Unlock()
		return
	}
	w.l, w.dead = nil, true
	if err := w.cfg.Registry.Remove(os.Getpid()); err != nil {
		w.cfg.Logger.Print(err)
	}
	w.mu.Unlock()
	l.Close()
	w.cfg.Status.SetClients(nil, 0)
	w.cfg.Status.SetListener("", fmt.Errorf("the listener stopped (%v); restarting", err))
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

// Stop closes the listener, every attached session and the registry entry.
func (w *Listener) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.on = false
	if w.l == nil && !w.dead {
		return
	}
	w.dead = false
	if w.l != nil {
		if err := w.cfg.Registry.Remove(os.Getpid()); err != nil {
			w.cfg.Logger.Print(err)
		}
		w.l.Close()
		w.l = nil
	}
	w.cfg.Status.SetListener("", nil)
	w.cfg.Status.SetClients(nil, 0)
}
