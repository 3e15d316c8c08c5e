package changeset

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// StoreSettle is how long a StoreWatcher waits after the first write it
// sees before it reports: a proposal or a decision is a few writes of the
// store file (a bbolt commit writes pages, then the meta page), which this
// coalesces into one report, and 100 ms is below what a person notices.
const StoreSettle = 100 * time.Millisecond

// StoreWatcher reports changes of the store file, written by this process
// or any other (a headless trestle --mcp, trestle changes), so a view of
// the change sets reloads when something changed instead of polling.
type StoreWatcher struct {
	w    *fsnotify.Watcher
	path string
	stop chan struct{}
	done sync.WaitGroup
}

// WatchStore starts watching the folder of m's store file (fsnotify does
// not watch a file that is replaced, and bbolt files are moved aside when
// damaged) and calls changed, from its own goroutine, StoreSettle after a
// write, a creation, a rename or a removal of the store file; overflowed
// events count as a change. It returns an error when the folder cannot be
// watched (no inotify instance left, say): the caller should poll then.
// Close stops it.
func WatchStore(m *Manager, changed func()) (*StoreWatcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch the change set store: %w", err)
	}
	path := m.store.Path()
	if err := w.Add(filepath.Dir(path)); err != nil {
		w.Close()
		return nil, fmt.Errorf("watch the change set store's folder %s: %w", filepath.Dir(path), err)
	}
	sw := &StoreWatcher{w: w, path: path, stop: make(chan struct{})}
	sw.done.Go(func() { sw.run(changed) })
	return sw, nil
}

// run drains the watcher's channels, so fsnotify never blocks, and
// reports at most once per StoreSettle.
func (sw *StoreWatcher) run(changed func()) {
	var settle <-chan time.Time
	for {
		select {
		case <-sw.stop:
			return
		case ev, ok := <-sw.w.Events:
			if !ok {
				return
			}
			if ev.Name == sw.path && !ev.Has(fsnotify.Chmod) && settle == nil {
				settle = time.After(StoreSettle)
			}
		case err, ok := <-sw.w.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) && settle == nil {
				settle = time.After(StoreSettle)
			}
		case <-settle:
			settle = nil
			changed()
		}
	}
}

// Close stops the watcher and waits for its goroutine: the watcher first,
// then the loop. Safe to call once.
func (sw *StoreWatcher) Close() {
	sw.w.Close()
	close(sw.stop)
	sw.done.Wait()
}
