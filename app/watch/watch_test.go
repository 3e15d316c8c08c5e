package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// waitTimeout is generous: CI machines under -race can be slow, and a
// passing test never waits this long.
const waitTimeout = 30 * time.Second

// recorder collects what a Watcher delivers.
type recorder struct {
	mu      sync.Mutex
	batches [][]Event
	errs    []error
	changed chan struct{} // signalled on every delivery
}

func newRecorder() *recorder { return &recorder{changed: make(chan struct{}, 1)} }

func (r *recorder) onBatch(events []Event) {
	r.mu.Lock()
	r.batches = append(r.batches, events)
	r.mu.Unlock()
	r.signal()
}

func (r *recorder) onError(err error) {
	r.mu.Lock()
	r.errs = append(r.errs, err)
	r.mu.Unlock()
	r.signal()
}

func (r *recorder) signal() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// latest returns the last op seen for each path over all batches.
func (r *recorder) latest() map[string]Op {
	r.mu.Lock()
	defer r.mu.Unlock()
	ops := map[string]Op{}
	for _, b := range r.batches {
		for _, e := range b {
			ops[e.Path] = e.Op
		}
	}
	return ops
}

func (r *recorder) batchCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.batches)
}

// waitFor waits until cond holds for the latest ops, or fails the test.
func (r *recorder) waitFor(t *testing.T, what string, cond func(map[string]Op) bool) {
	t.Helper()
	deadline := time.After(waitTimeout)
	for !cond(r.latest()) {
		select {
		case <-r.changed:
		case <-deadline:
			t.Fatalf("timed out waiting for %s; got %v", what, r.latest())
		}
	}
}

// start watches a new temp folder holding files and waits for its first walk.
func start(t *testing.T, files map[string]string, opts Options) (string, *Watcher, *recorder) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		write(t, root, name, text)
	}
	rec := newRecorder()
	opts.OnBatch, opts.OnError = rec.onBatch, rec.onError
	w, err := Start(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	select {
	case <-w.Ready():
	case <-time.After(waitTimeout):
		t.Fatal("first walk did not finish")
	}
	return root, w, rec
}

func write(t *testing.T, root, name, text string) {
	t.Helper()
	abs := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func has(path string, op Op) func(map[string]Op) bool {
	return func(ops map[string]Op) bool { return ops[path] == op }
}

func TestCreateFile(t *testing.T) {
	root, _, rec := start(t, nil, Options{})
	write(t, root, "a.go", "package a\n")
	rec.waitFor(t, "a.go created", has("a.go", Created))
}

func TestWriteFile(t *testing.T) {
	root, _, rec := start(t, map[string]string{"a.go": ""}, Options{})
	write(t, root, "a.go", "package a\n")
	rec.waitFor(t, "a.go changed", has("a.go", Changed))
}

func TestNestedFolderCreatedQuickly(t *testing.T) {
	root, _, rec := start(t, nil, Options{})
	// No pause: the files exist before the watcher can add the new folders.
	write(t, root, "x/y/z/deep.go", "package z\n")
	write(t, root, "x/top.go", "package x\n")
	rec.waitFor(t, "nested files created", func(ops map[string]Op) bool {
		return ops["x"] == Created && ops["x/y/z/deep.go"] == Created && ops["x/top.go"] == Created
	})
	// The new folders are watched too.
	write(t, root, "x/y/z/later.go", "")
	rec.waitFor(t, "a file in the new folder", has("x/y/z/later.go", Created))
}

func TestRemove(t *testing.T) {
	root, _, rec := start(t, map[string]string{"a.go": "", "d/b.go": ""}, Options{})
	if err := os.Remove(filepath.Join(root, "a.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, "d")); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "removals", func(ops map[string]Op) bool {
		return ops["a.go"] == Removed && ops["d"] == Removed
	})
}

func TestRename(t *testing.T) {
	root, _, rec := start(t, map[string]string{"old.go": "", "dir/in.go": ""}, Options{})
	mv(t, root, "old.go", "new.go")
	mv(t, root, "dir", "moved")
	rec.waitFor(t, "renames", func(ops map[string]Op) bool {
		return ops["old.go"] == Removed && ops["new.go"] == Created &&
			ops["dir"] == Removed && ops["moved"] == Created && ops["moved/in.go"] == Created
	})
	// The moved folder is watched under its new name, and only there.
	write(t, root, "moved/after.go", "")
	rec.waitFor(t, "a file in the moved folder", has("moved/after.go", Created))
	if _, ok := rec.latest()["dir/after.go"]; ok {
		t.Error("event reported under the folder's old name")
	}
}

func mv(t *testing.T, root, from, to string) {
	t.Helper()
	if err := os.Rename(filepath.Join(root, from), filepath.Join(root, to)); err != nil {
		t.Fatal(err)
	}
}

func TestChmodOnlyProducesNothing(t *testing.T) {
	root, _, rec := start(t, map[string]string{"a.go": ""}, Options{})
	if err := os.Chmod(filepath.Join(root, "a.go"), 0o600); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := os.Chtimes(filepath.Join(root, "a.go"), now, now); err != nil {
		t.Fatal(err)
	}
	write(t, root, "marker.go", "") // a later event proves the earlier ones were seen
	rec.waitFor(t, "marker", has("marker.go", Created))
	if ops := rec.latest(); len(ops) != 1 {
		t.Errorf("chmod produced events: %v", ops)
	}
}

func TestBurstIsDebounced(t *testing.T) {
	root, _, rec := start(t, map[string]string{"a.go": ""}, Options{})
	for i := range 100 {
		write(t, root, "a.go", fmt.Sprint(i))
		write(t, root, fmt.Sprintf("f%02d.go", i), "")
	}
	rec.waitFor(t, "the last file", has("f99.go", Created))
	if n := rec.batchCount(); n > 5 {
		t.Errorf("100 writes came in %d batches, want a few", n)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, b := range rec.batches {
		seen := map[string]bool{}
		for _, e := range b {
			if seen[e.Path] {
				t.Errorf("%s twice in one batch", e.Path)
			}
			seen[e.Path] = true
		}
	}
}

func TestGitAndSkippedFoldersIgnored(t *testing.T) {
	skip := func(rel string) bool { return rel == "vendor" }
	root, w, rec := start(t, map[string]string{".git/HEAD": "", "vendor/v.go": ""}, Options{SkipDir: skip})
	write(t, root, ".git/index", "x")
	write(t, root, ".git/refs/heads/main", "x")
	write(t, root, "vendor/w.go", "x")
	write(t, root, "marker.go", "")
	rec.waitFor(t, "marker", has("marker.go", Created))
	if ops := rec.latest(); len(ops) != 1 {
		t.Errorf("events from .git or a skipped folder: %v", ops)
	}
	for _, name := range w.fsw.WatchList() {
		if strings.Contains(name, ".git") || strings.Contains(name, "vendor") {
			t.Errorf("watching %s", name)
		}
	}
}

func TestWatchLimitReportedOnceAndKeepsRunning(t *testing.T) {
	adds := 0 // used on the watcher's goroutine only
	add := func(fsw *fsnotify.Watcher, name string) error {
		adds++
		if adds > 2 { // the root and one folder fit
			return fmt.Errorf("add %s: %w", name, syscall.ENOSPC)
		}
		return fsw.Add(name)
	}
	files := map[string]string{"a/x.go": "", "b/x.go": "", "c/x.go": "", "d/x.go": ""}
	root, _, rec := start(t, files, Options{add: add})
	write(t, root, "root.go", "")
	rec.waitFor(t, "an event in the watched root", has("root.go", Created))
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.errs) != 1 || !errors.Is(rec.errs[0], ErrWatchLimit) ||
		!strings.Contains(rec.errs[0].Error(), "raise fs.inotify.max_user_watches") {
		t.Errorf("errors = %v, want one ErrWatchLimit naming the sysctl", rec.errs)
	}
}

func TestCloseIsPromptAndLeaksNothing(t *testing.T) {
	before := runtime.NumGoroutine()
	root, w, _ := start(t, map[string]string{"a/b/c.go": ""}, Options{})
	write(t, root, "a/new.go", "") // leave a batch pending
	done := make(chan error, 1)
	go func() { done <- w.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("Close did not return")
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	deadline := time.Now().Add(waitTimeout)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after Close, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

func TestContextStops(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w, err := Start(ctx, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-w.stop:
	case <-time.After(waitTimeout):
		t.Fatal("cancelled context did not stop the watcher")
	}
	w.Close()
}

func TestMerge(t *testing.T) {
	tests := []struct {
		name string
		ops  []Op
		want Op
	}{
		{name: "created then written", ops: []Op{Created, Changed}, want: Created},
		{name: "removed then created", ops: []Op{Removed, Created}, want: Changed},
		{name: "created then removed", ops: []Op{Created, Removed}, want: Removed},
		{name: "written then removed", ops: []Op{Changed, Removed}, want: Removed},
		{name: "written twice", ops: []Op{Changed, Changed}, want: Changed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b batch
			for _, op := range tt.ops {
				b.add("p", op)
			}
			if got := b.take(); !slices.Equal(got, []Event{{"p", tt.want}}) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
