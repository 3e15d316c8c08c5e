package watch

import (
	"errors"
	"fmt"
	"os"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// drain moves fsnotify's events and errors into the watcher's queue as fast
// as they come, so that the kernel queue does not overflow while the loop
// walks a new folder. It ends when fsnotify closes its channels.
func (w *Watcher) drain() {
	defer w.wg.Done()
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			w.enqueue(ev, nil)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			w.enqueue(fsnotify.Event{}, err)
		}
	}
}

// enqueue adds a Chmod-free event, or an error, to the queue and wakes the loop.
func (w *Watcher) enqueue(ev fsnotify.Event, err error) {
	if err == nil && !ev.Has(fsnotify.Create|fsnotify.Write|fsnotify.Remove|fsnotify.Rename) {
		return // Chmod only: a touch or chmod changes nothing shown
	}
	w.mu.Lock()
	switch {
	case err != nil:
		w.errs = append(w.errs, err)
	case len(w.queue) >= maxQueue:
		w.overflow = true
	default:
		w.queue = append(w.queue, ev)
	}
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// take empties the queue.
func (w *Watcher) take() ([]fsnotify.Event, []error, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	q, errs, over := w.queue, w.errs, w.overflow
	w.queue, w.errs, w.overflow = nil, nil, false
	return q, errs, over
}

// run is the watcher's goroutine: the first walk, then events in, batches
// out after debounce (at most maxLatency after the first event).
func (w *Watcher) run() {
	defer w.wg.Done()
	w.walk("", false)
	close(w.ready)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var first time.Time // when the pending batch got its first event
	for {
		select {
		case <-w.stop:
			timer.Stop()
			return
		case <-w.wake:
			w.process(w.take())
			if w.pending.empty() {
				continue
			}
			if first.IsZero() {
				first = time.Now()
			}
			timer.Reset(min(debounce, time.Until(first.Add(maxLatency))))
		case <-timer.C:
			first = time.Time{}
			w.deliver()
		}
	}
}

// process turns raw events into pending events and reports errors.
func (w *Watcher) process(events []fsnotify.Event, errs []error, overflow bool) {
	for _, err := range errs {
		if errors.Is(err, fsnotify.ErrEventOverflow) {
			overflow = true
			continue
		}
		w.report(fmt.Errorf("watch %s: %w", w.root, err))
	}
	if overflow {
		w.report(fmt.Errorf("watch %s: too many changes at once, some were missed: everything is read again", w.root))
		w.walk("", false) // pick up folders whose creation was missed
		w.pending.add(All, Changed)
	}
	for _, ev := range events {
		w.handle(ev)
	}
}

// handle records one raw event.
func (w *Watcher) handle(ev fsnotify.Event) {
	rel, ok := w.rel(ev.Name)
	if !ok || isGit(rel) {
		return
	}
	switch {
	case ev.Has(fsnotify.Create):
		w.created(rel)
	case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
		w.removed(rel)
	case ev.Has(fsnotify.Write):
		w.pending.add(rel, Changed)
	}
}

// created records rel and, for a folder, watches it and records what is
// already in it: files may be created there before its watch is added.
func (w *Watcher) created(rel string) {
	info, err := os.Lstat(w.abs(rel))
	if err != nil {
		return // already gone: its Remove event follows
	}
	w.pending.add(rel, Created)
	if info.IsDir() {
		w.walk(rel, true)
	}
}

// removed records rel and drops the watches of rel and the folders below
// it (a folder renamed away keeps its inotify watches otherwise).
func (w *Watcher) removed(rel string) {
	w.pending.add(rel, Removed)
	for dir := range w.watched {
		if dir == rel || strings.HasPrefix(dir, rel+"/") {
			delete(w.watched, dir)
			_ = w.fsw.Remove(w.abs(dir)) // often gone already with the folder
		}
	}
}

// walk watches the folder rel and its subfolders, except .git, skipped
// folders and symlinks. With emit it records everything it finds as Created.
func (w *Watcher) walk(rel string, emit bool) {
	if w.stopped() || (rel != "" && w.opts.SkipDir != nil && w.opts.SkipDir(rel)) {
		return
	}
	if err := w.watch(rel); err != nil {
		return
	}
	des, err := os.ReadDir(w.abs(rel))
	if err != nil {
		return // removed meanwhile, or unreadable: nothing to watch
	}
	for _, de := range des {
		child := path.Join(rel, de.Name())
		if isGit(child) {
			continue
		}
		if emit {
			w.pending.add(child, Created)
		}
		if de.IsDir() {
			w.walk(child, emit)
		}
	}
}

// watch adds the folder rel to fsnotify, once. Hitting the system's watch
// limit is reported the first time.
func (w *Watcher) watch(rel string) error {
	if w.watched[rel] {
		return nil
	}
	err := w.add(w.fsw, w.abs(rel))
	switch {
	case err == nil:
		w.watched[rel] = true
	case errors.Is(err, syscall.ENOSPC) && !w.limitHandled:
		w.limitHandled = true
		w.report(fmt.Errorf("%w: raise fs.inotify.max_user_watches (e.g. sudo sysctl fs.inotify.max_user_watches=524288) and reopen the project; changes in %s and other folders are not shown until then",
			ErrWatchLimit, displayName(rel)))
	}
	return err
}

// deliver hands the pending batch to OnBatch unless the watcher is closing.
func (w *Watcher) deliver() {
	events := w.pending.take()
	if len(events) == 0 || w.stopped() || w.opts.OnBatch == nil {
		return
	}
	w.opts.OnBatch(events)
}

// report hands err to OnError.
func (w *Watcher) report(err error) {
	if w.opts.OnError != nil && !w.stopped() {
		w.opts.OnError(err)
	}
}

// isGit reports whether rel is .git or inside it, at any depth.
func isGit(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if part == ".git" {
			return true
		}
	}
	return false
}

// displayName names the folder rel for a person.
func displayName(rel string) string {
	if rel == "" {
		return "the project folder"
	}
	return rel
}
