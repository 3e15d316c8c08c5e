package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"trestle/app/errdefs"
)

// LockWait bounds how long an operation waits for another Trestle
// process that holds the store: long enough for its short transaction to
// finish, short enough that nobody notices a stall.
const LockWait = 2 * time.Second

// Bucket names. Every bucket is created right after open.
var (
	bucketRecent   = []byte("recent")   // project dir -> RFC 3339 time last opened
	bucketSettings = []byte("settings") // key -> JSON value
	bucketProjects = []byte("projects") // project dir -> JSON ProjectState
	bucketTrust    = []byte("trust")    // trusted project dir -> RFC 3339 time it was trusted
)

// allBuckets are created in one Update right after open.
var allBuckets = [][]byte{bucketRecent, bucketSettings, bucketProjects, bucketTrust}

// Store is Trestle's bbolt database. Several Trestle processes share the
// file, so none holds it open between operations: each one opens it with a
// bounded lock wait, runs one transaction and closes it. Store is safe for
// concurrent use; callers never see a transaction.
type Store struct {
	path      string
	recovered atomic.Pointer[string] // where a corrupt file was moved
}

// Open returns the store at path, creating the file and its folder.
// A file that is not a bbolt database (truncated, corrupted) is moved aside
// to path.corrupt-<time> and a new one is started, so Trestle still starts.
func Open(path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create store folder: %w", err)
	}
	s := &Store{path: path}
	// A store already there with every bucket is only read: opening it
	// then costs no write transaction and its two flushes (a `trestle
	// changes` call opens the store once per run).
	switch err := s.viewOnce(func(*bolt.Tx) error { return nil }); {
	case err == nil:
		return s, nil
	case errors.Is(err, errdefs.ErrBusy):
		return nil, err
	}
	if err := s.update(func(*bolt.Tx) error { return nil }); err != nil {
		return nil, err
	}
	return s, nil
}

// Recovered returns where a corrupt store file was moved aside, or "" when
// none was: the person should hear that settings and proposals started over.
func (s *Store) Recovered() string {
	if p := s.recovered.Load(); p != nil {
		return *p
	}
	return ""
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// open opens the file, read-only (a shared lock, so readers in several
// processes run at once) or for writing (an exclusive lock). Opening for
// writing moves a corrupt file aside and starts a new one.
func (s *Store) open(readOnly bool) (*bolt.DB, error) {
	opts := &bolt.Options{Timeout: LockWait, ReadOnly: readOnly}
	db, err := bolt.Open(s.path, 0o600, opts)
	if err != nil && !readOnly && isCorrupt(err) {
		aside := fmt.Sprintf("%s.corrupt-%s", s.path, time.Now().Format("20060102-150405"))
		if mvErr := os.Rename(s.path, aside); mvErr != nil {
			return nil, fmt.Errorf("open store %s: %w (and moving it aside failed: %v)", s.path, err, mvErr)
		}
		s.recovered.Store(&aside)
		db, err = bolt.Open(s.path, 0o600, opts)
	}
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("open store %s: another process held it for %s: %w", s.path, LockWait, errdefs.ErrBusy)
	}
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", s.path, err)
	}
	return db, nil
}

// createBuckets makes every bucket of ours, inside a write transaction.
func createBuckets(tx *bolt.Tx) error {
	for _, b := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return fmt.Errorf("create bucket %s: %w", b, err)
		}
	}
	return nil
}

// errNoBuckets means a read found a file without our buckets (new, or
// replaced by another process); the read is retried after creating them.
var errNoBuckets = errors.New("store has no buckets yet")

func isCorrupt(err error) bool {
	return errors.Is(err, bolterrors.ErrInvalid) || errors.Is(err, bolterrors.ErrChecksum) ||
		errors.Is(err, bolterrors.ErrVersionMismatch) || errors.Is(err, bolterrors.ErrInvalidMapping)
}

func (s *Store) update(fn func(*bolt.Tx) error) error {
	db, err := s.open(false)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Update(func(tx *bolt.Tx) error {
		if err := createBuckets(tx); err != nil {
			return err
		}
		return fn(tx)
	})
}

// view runs fn in a read-only transaction on a read-only open, so it never
// commits or fsyncs and readers do not wait for each other.
func (s *Store) view(fn func(*bolt.Tx) error) error {
	err := s.viewOnce(fn)
	if errors.Is(err, errNoBuckets) {
		if err := s.update(func(*bolt.Tx) error { return nil }); err != nil {
			return err
		}
		err = s.viewOnce(fn)
	}
	return err
}

func (s *Store) viewOnce(fn func(*bolt.Tx) error) error {
	db, err := s.open(true)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.View(func(tx *bolt.Tx) error {
		for _, b := range allBuckets {
			if tx.Bucket(b) == nil {
				return errNoBuckets
			}
		}
		return fn(tx)
	})
}
