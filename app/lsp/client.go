package lsp

import (
	"context"
	"errors"
	"log"
	"path/filepath"
	"sync"
	"time"
)

// State is where the client's gopls is in its life, for the status bar.
type State string

const (
	StateIdle       State = "idle"       // not started: nothing has asked yet
	StateStarting   State = "starting"   // the process is up, initialize not answered yet
	StateReady      State = "ready"      // answering
	StateRestarting State = "restarting" // it died or hung; a new one starts after a backoff
	StateFailed     State = "failed"     // it cannot start (not installed, or it keeps dying)
	StateClosed     State = "closed"     // Close was called
)

// Status is the client's state, with the last problem in words.
type Status struct {
	State    State  `json:"state"`
	Detail   string `json:"detail,omitempty"`
	Restarts int    `json:"restarts"`
	// Missing: gopls was not found (Detail says how to install it).
	Missing bool `json:"missing,omitempty"`
}

// Timing bounds. The starts are generous: on a loaded two-core machine
// gopls takes seconds to load a module.
const (
	// DefaultStartTimeout bounds initialize (gopls loads the workspace).
	DefaultStartTimeout = 2 * time.Minute
	// DefaultHangAfter: a request unanswered this long while gopls sends
	// nothing at all means it hangs; it is killed and restarted.
	DefaultHangAfter = 90 * time.Second
	// firstBackoff doubles per quick failure up to maxBackoff.
	firstBackoff = 500 * time.Millisecond
	maxBackoff   = 30 * time.Second
	// healthyAfter: a gopls that lived this long resets the failure count.
	healthyAfter = time.Minute
	// giveUpAfter quick failures in a row: state failed, no automatic
	// restart; the next request tries again.
	giveUpAfter = 5
	// notInstalledRetry: how long a missing gopls is believed before the
	// next request looks again (so keystrokes do not run `go env`).
	notInstalledRetry = 10 * time.Second
)

// ErrClosed is returned by requests after Close.
var ErrClosed = errors.New("the Go language server was closed")

// Config is what a Client needs.
type Config struct {
	// Root is the project folder (absolute); gopls's workspace.
	Root string
	// Find locates gopls; nil means Find(ctx, "").
	Find func(ctx context.Context) (string, error)
	// Env is gopls's environment; nil means the process's.
	Env []string
	// Args are gopls's flags; Trestle passes none, so that each client has
	// a gopls of its own (doc.go says why not -remote=auto).
	Args []string
	// Logger gets gopls's stderr and the client's events; nil discards.
	Logger *log.Logger
	// OnStatus hears every state change, from any goroutine; it must not block.
	OnStatus func(Status)
	// OnDiagnostics hears that path's diagnostics changed (call
	// Diagnostics for them), from any goroutine; it must not block.
	OnDiagnostics func(path string)
	// StartTimeout and HangAfter default to DefaultStartTimeout and DefaultHangAfter.
	StartTimeout time.Duration
	HangAfter    time.Duration
}

// doc is a file whose text the editor owns (unsaved text included).
type doc struct {
	text    string
	pending *lazyText // the text when not joined yet (text is then an older one)
	version int
	lines   *lines // text's index, built on first use
	// auto: opened by a request, not the editor (keepopen.go): its text
	// is the disk's as of stamp, and used orders the files for closing.
	auto  bool
	stamp fileStamp
	used  uint64
	// key names text when OpenDocumentVersion sent it (0: unknown).
	key uint64
	// past are the texts before this one, newest last (keptTexts at
	// most), for the positions of diagnostics gopls computed on them.
	past []pastText
}

// keptTexts is how many texts before a document's current one are kept
// for diagnostics that arrive for them: gopls answers a version after the
// editor sent newer ones when the person types faster than it checks.
const keptTexts = 4

// pastText is a text a document held before.
type pastText struct {
	version int
	key     uint64
	text    func() string
}

// remember keeps d's text as one of its past texts, before d takes a new
// one. c.mu is held.
func (d *doc) remember() {
	if d.version == 0 || d.auto {
		return
	}
	text, lazy := d.text, d.pending
	get := func() string { return text }
	if lazy != nil {
		get = lazy.get
	}
	if len(d.past) == keptTexts {
		d.past = append(d.past[:0], d.past[1:]...)
	}
	d.past = append(d.past, pastText{d.version, d.key, get})
}

// Client is one project's gopls, started on the first request and
// restarted when it dies. Safe for concurrent use; no method blocks longer
// than its context allows, and Open/CloseDocument never block on gopls.
type Client struct {
	cfg      Config
	root     string // cfg.Root, cleaned
	realRoot string // root with symlinks resolved, as gopls may report it

	mu           sync.Mutex
	status       Status
	sess         *session
	closed       bool
	failures     int
	retryAt      time.Time // a failed start is not retried before
	docs         map[string]*doc
	diags        map[string][]Diagnostic
	wg           sync.WaitGroup
	restartTimer *time.Timer
	changed      chan struct{} // closed and replaced when sess changes
	lastEvent    time.Time     // the last diagnostics published, or the last ready
	onStatus     []func(Status)
	onDiags      []func(path string)
	disk         diskLines // indexes of files read from disk
	tick         uint64    // orders the uses of files requests opened
}

// New returns a client for the project at cfg.Root; gopls starts on the
// first request.
func New(cfg Config) *Client {
	if cfg.Find == nil {
		cfg.Find = func(ctx context.Context) (string, error) { return Find(ctx, "") }
	}
	if cfg.Logger == nil {
		cfg.Logger = log.New(discard{}, "", 0)
	}
	if cfg.StartTimeout == 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	if cfg.HangAfter == 0 {
		cfg.HangAfter = DefaultHangAfter
	}
	root := filepath.Clean(cfg.Root)
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		real = root
	}
	return &Client{cfg: cfg, root: root, realRoot: real, status: Status{State: StateIdle},
		docs: map[string]*doc{}, diags: map[string][]Diagnostic{}, changed: make(chan struct{})}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Status is the current state.
func (c *Client) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}

// Start starts gopls now, if it is not running, without waiting for it.
func (c *Client) Start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed && c.sess == nil && time.Now().After(c.retryAt) {
		c.startLocked()
	}
}

// setStatusLocked changes the state and tells OnStatus (in a goroutine of
// its own would reorder; the callback must not block).
func (c *Client) setStatusLocked(st State, detail string) {
	c.status.State, c.status.Detail, c.status.Missing = st, detail, false
	if f := c.cfg.OnStatus; f != nil {
		f(c.status)
	}
	for _, f := range c.onStatus {
		f(c.status)
	}
}

// Close stops gopls and waits for it to exit. Requests after it fail.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	s := c.sess
	if c.restartTimer != nil {
		c.restartTimer.Stop()
	}
	c.setStatusLocked(StateClosed, "")
	c.mu.Unlock()
	if s != nil {
		s.shutdown()
	}
	c.wg.Wait()
	return nil
}

// PID is the running gopls's process id, 0 when none runs (for tests and
// the status bar's details).
func (c *Client) PID() int {
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	if s == nil {
		return 0
	}
	select {
	case <-s.ready:
	default:
		return 0
	}
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Settle waits until gopls is ready and has published no diagnostics for
// quiet (it diagnoses the workspace after loading it), or ctx ends; it
// returns the error of starting gopls, not ctx's.
func (c *Client) Settle(ctx context.Context, quiet time.Duration) error {
	if _, err := c.session(ctx); err != nil {
		return err
	}
	for {
		c.mu.Lock()
		left := quiet - time.Since(c.lastEvent)
		c.mu.Unlock()
		if left <= 0 {
			return nil
		}
		select {
		case <-time.After(left):
		case <-ctx.Done():
			return nil
		}
	}
}

// Listen adds listeners of state changes and of diagnostics changes (as
// Config.OnStatus and Config.OnDiagnostics; either may be nil). They are
// called from any goroutine and must not block.
func (c *Client) Listen(status func(Status), diags func(path string)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if status != nil {
		c.onStatus = append(c.onStatus, status)
	}
	if diags != nil {
		c.onDiags = append(c.onDiags, diags)
	}
}

func (c *Client) setStatusLockedMissing(detail string) {
	c.status.State, c.status.Detail, c.status.Missing = StateFailed, detail, true
	if f := c.cfg.OnStatus; f != nil {
		f(c.status)
	}
	for _, f := range c.onStatus {
		f(c.status)
	}
}

// Retry forgets a failed start, so the next request starts gopls again at
// once (after the person installed it).
func (c *Client) Retry() {
	c.mu.Lock()
	c.retryAt, c.failures = time.Time{}, 0
	c.mu.Unlock()
	c.Start()
}
