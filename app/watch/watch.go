package watch

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

const (
	// debounce is how long the tree must stay quiet before a batch goes out.
	// A save, a `git checkout` or `go build` arrives as a burst of events a
	// few milliseconds apart; 100 ms gathers such a burst into one batch
	// (one tree refresh) and is still under the ~150 ms at which a person
	// starts to notice the lag.
	debounce = 100 * time.Millisecond
	// maxLatency bounds the wait when the tree never goes quiet (a long
	// build, a large copy): a batch goes out at least this often.
	maxLatency = 500 * time.Millisecond
	// maxQueue bounds the raw events held between the fsnotify channel and
	// the watcher's goroutine. Past it events are dropped and reported as
	// one All event, as after a kernel queue overflow.
	maxQueue = 100_000
)

// ErrWatchLimit is reported (wrapped, once) through Options.OnError when the
// operating system refuses more watches. The watcher keeps running with the
// folders it watches.
var ErrWatchLimit = errors.New("the system's inotify watch limit is reached")

// Options configure a Watcher. The callbacks are called one at a time on
// the watcher's own goroutine; they must not block for long and must not
// call Close.
type Options struct {
	// SkipDir reports whether the folder rel (project-relative, slash)
	// should not be watched, e.g. because .gitignore ignores it. .git is
	// always skipped. Nil watches every folder. It must be safe to call
	// from the watcher's goroutine.
	SkipDir func(rel string) bool
	// OnBatch receives each debounced batch of events.
	OnBatch func([]Event)
	// OnError receives problems a person may act on: the watch limit (once,
	// wrapping ErrWatchLimit), lost events, fsnotify errors.
	OnError func(error)

	add func(fsw *fsnotify.Watcher, name string) error // test hook: replaces fsw.Add
}

// Watcher watches one project folder tree. Its methods are safe for
// concurrent use; it runs until Close or until its context is done.
type Watcher struct {
	root  string
	opts  Options
	fsw   *fsnotify.Watcher
	add   func(fsw *fsnotify.Watcher, name string) error
	ready chan struct{} // closed when the first walk is done
	stop  chan struct{} // closed by Close
	wake  chan struct{} // one pending signal: the queue has something
	wg    sync.WaitGroup

	closeOnce sync.Once
	closeErr  error
	afterCtx  func() bool // stops the context hook

	mu       sync.Mutex
	queue    []fsnotify.Event
	errs     []error
	overflow bool // events were dropped from the queue

	// Owned by the loop goroutine.
	watched      map[string]bool // folders with a watch, project-relative
	pending      batch
	limitHandled bool
}

// Start begins watching the folder root (absolute, symlinks resolved) and
// its subfolders. It returns at once: the folders are walked and added on
// the watcher's goroutine (Ready tells when). The watcher stops when ctx is
// done or Close is called.
func Start(ctx context.Context, root string, opts Options) (*Watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		if errors.Is(err, syscall.EMFILE) {
			return nil, fmt.Errorf("watch %s: the system's inotify instance limit is reached: raise fs.inotify.max_user_instances: %w", root, err)
		}
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	w := &Watcher{
		root: root, opts: opts, fsw: fsw, add: opts.add,
		ready: make(chan struct{}), stop: make(chan struct{}), wake: make(chan struct{}, 1),
		watched: map[string]bool{},
	}
	if w.add == nil {
		w.add = (*fsnotify.Watcher).Add
	}
	w.wg.Add(2)
	go w.drain()
	go w.run()
	w.afterCtx = context.AfterFunc(ctx, func() { w.Close() })
	return w, nil
}

// Ready is closed when the first walk of the tree is done: changes made
// after that are reported. Safe for concurrent use.
func (w *Watcher) Ready() <-chan struct{} { return w.ready }

// Close stops watching and waits for the watcher's goroutines to end, in
// the order fsnotify watcher → stop → wait. No callback runs after it
// returns. Safe to call more than once and from any goroutine except the
// watcher's own (its callbacks).
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() {
		if err := w.fsw.Close(); err != nil {
			w.closeErr = fmt.Errorf("close watcher on %s: %w", w.root, err)
		}
		close(w.stop)
		w.afterCtx()
	})
	w.wg.Wait()
	return w.closeErr
}

// abs turns a project-relative slash path into an absolute one.
func (w *Watcher) abs(rel string) string {
	return filepath.Join(w.root, filepath.FromSlash(rel))
}

// rel turns an absolute event path into a project-relative slash path;
// ok is false for the root itself and anything outside it.
func (w *Watcher) rel(abs string) (string, bool) {
	rel, err := filepath.Rel(w.root, abs)
	if err != nil || rel == "." || rel == ".." || filepath.IsAbs(rel) ||
		len(rel) > 2 && rel[:3] == ".."+string(filepath.Separator) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// stopped reports whether Close has been called.
func (w *Watcher) stopped() bool {
	select {
	case <-w.stop:
		return true
	default:
		return false
	}
}
