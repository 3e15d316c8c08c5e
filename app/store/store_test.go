package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"trestle/app/errdefs"
)

func TestStoreRemembersLastProject(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.LastProject(); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("empty store: %v", err)
	}
	a, b := t.TempDir(), t.TempDir()
	s.TouchProject(a)
	time.Sleep(2 * time.Millisecond)
	s.TouchProject(b)
	if got, err := s.LastProject(); got != b || err != nil {
		t.Fatalf("last = %s, %v; want %s", got, err, b)
	}
	os.Remove(b)
	if got, _ := s.LastProject(); got != a {
		t.Fatalf("after removing %s: last = %s, want %s", b, got, a)
	}
}

func TestStoreMovesCorruptFileAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	if err := os.WriteFile(path, make([]byte, 8192), 0o600); err != nil { // zeroes: not a bbolt file
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatalf("open corrupt store: %v", err)
	}
	if err := s.TouchProject(dir); err != nil {
		t.Fatal(err)
	}
	aside, _ := filepath.Glob(path + ".corrupt-*")
	if len(aside) != 1 || s.Recovered() != aside[0] {
		t.Fatalf("corrupt copies: %v, Recovered %q", aside, s.Recovered())
	}
}

func TestConfigDirOverride(t *testing.T) {
	t.Setenv("TRESTLE_CONFIG_DIR", "/tmp/trestle-x")
	if d, _ := ConfigDir(); d != "/tmp/trestle-x" {
		t.Fatalf("override: %s", d)
	}
	t.Setenv("TRESTLE_CONFIG_DIR", "")
	t.Setenv("XDG_CONFIG_HOME", "/tmp/xdg")
	if d, _ := ConfigDir(); d != "/tmp/xdg/trestle" {
		t.Fatalf("xdg: %s", d)
	}
}

func TestStoreHeldByAnotherOpenerIsBusyNotHung(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	held, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	start := time.Now()
	err = s.TouchProject("/x")
	if !errors.Is(err, errdefs.ErrBusy) {
		t.Fatalf("got %v, want ErrBusy", err)
	}
	if d := time.Since(start); d > LockWait+2*time.Second {
		t.Fatalf("waited %v", d)
	}
}

// TestOpenExistingStoreOnlyReads: opening a store that is already there
// writes nothing to it (before, every Open committed an empty write
// transaction, with two flushes, which a `trestle changes` call paid for).
func TestOpenExistingStoreOnlyReads(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.TouchProject(dir); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("opening an existing store wrote to it")
	}
	if got, err := again.LastProject(); err != nil || got != dir {
		t.Fatalf("read through the second open: %q %v", got, err)
	}
}
