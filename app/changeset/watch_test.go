package changeset

import (
	"path/filepath"
	"testing"
	"time"

	"trestle/app/store"
)

// TestWatchStoreSeesAnotherProcess: a proposal stored through another
// handle on the same file (as a headless server's) is reported, without
// polling; a read is not.
func TestWatchStoreSeesAnotherProcess(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "a\n"})
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	m := NewManager(s, p)
	if _, err := m.Start(); err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 10)
	sw, err := WatchStore(m, func() { changed <- struct{}{} })
	if err != nil {
		t.Fatal(err)
	}
	defer sw.Close()
	// A fresh Manager's list runs Start too: with nothing to migrate,
	// recover or prune it must not write the store.
	if _, err := NewManager(s, p).List(""); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
		t.Fatal("a read (and a Start with nothing to do) was reported as a change")
	case <-time.After(3 * StoreSettle):
	}
	other, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	proposeOne(t, NewManager(other, p), "a.go")
	select {
	case <-changed:
	case <-time.After(30 * time.Second): // generous: a loaded machine
		t.Fatal("a proposal through another handle was not reported within 30s")
	}
}
