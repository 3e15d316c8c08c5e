package store

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"trestle/app/errdefs"
)

func openTestStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRecordsRoundTripInIDOrder(t *testing.T) {
	s := openTestStore(t)
	if recs, err := s.ListRecords("things"); err != nil || len(recs) != 0 {
		t.Fatalf("unused bucket: %v, %v", recs, err)
	}
	var ids []uint64
	for i := range 260 { // past 255, where a little-endian key would sort wrong
		id, err := s.NextRecordID("things")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.PutRecord("things", id, []byte(strconv.Itoa(i))); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	recs, err := s.ListRecords("things")
	if err != nil || len(recs) != 260 {
		t.Fatalf("list: %d records, %v", len(recs), err)
	}
	for i, r := range recs {
		if r.ID != ids[i] || string(r.Value) != strconv.Itoa(i) {
			t.Fatalf("record %d = %d %q, want %d %q", i, r.ID, r.Value, ids[i], strconv.Itoa(i))
		}
	}
	got, err := s.GetRecord("things", ids[42])
	if err != nil || string(got) != "42" {
		t.Fatalf("get: %q, %v", got, err)
	}
}

func TestRecordsMissing(t *testing.T) {
	s := openTestStore(t)
	if _, err := s.GetRecord("things", 1); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("get from missing bucket: %v", err)
	}
	s.PutRecord("things", 1, []byte("x"))
	if _, err := s.GetRecord("things", 2); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("get missing id: %v", err)
	}
	called := false
	err := s.UpdateRecord("things", 2, func([]byte) ([]byte, error) { called = true; return nil, nil })
	if !errors.Is(err, errdefs.ErrNotFound) || called {
		t.Fatalf("update missing id: %v, fn called %v", err, called)
	}
}

func TestRecordsRefuseStoreBuckets(t *testing.T) {
	s := openTestStore(t)
	for _, name := range []string{"", "recent", "settings", "projects"} {
		if err := s.PutRecord(name, 1, []byte("x")); !errors.Is(err, errdefs.ErrInvalid) {
			t.Errorf("put into %q: %v", name, err)
		}
	}
}

func TestUpdateRecordErrorKeepsValue(t *testing.T) {
	s := openTestStore(t)
	s.PutRecord("things", 1, []byte("old"))
	boom := errors.New("boom")
	err := s.UpdateRecord("things", 1, func(old []byte) ([]byte, error) {
		old[0] = 'X' // a copy: must not reach the store
		return nil, boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("update: %v", err)
	}
	if got, _ := s.GetRecord("things", 1); string(got) != "old" {
		t.Fatalf("after a failed update: %q", got)
	}
}

// TestUpdateRecordIsAtomicAcrossStores runs read-modify-write increments
// from two Store values on one file, as a window and a headless server
// would: none may be lost.
func TestUpdateRecordIsAtomicAcrossStores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Open(path)
	a.PutRecord("counter", 1, []byte("0"))
	const each = 25
	var wg sync.WaitGroup
	for _, s := range []*Store{a, b, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				err := s.UpdateRecord("counter", 1, func(old []byte) ([]byte, error) {
					n, err := strconv.Atoi(string(old))
					return []byte(strconv.Itoa(n + 1)), err
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	got, _ := b.GetRecord("counter", 1)
	if want := fmt.Sprint(4 * each); string(got) != want {
		t.Fatalf("counter = %s, want %s", got, want)
	}
}

// TestRecordTxIndexAndBlobs: an index keeps each key's ids apart (a key
// that is a prefix of another included), a failed transaction stores
// nothing, and blobs round-trip beside the database.
func TestRecordTxIndexAndBlobs(t *testing.T) {
	s := openTestStore(t)
	err := s.UpdateRecords(func(tx *RecordTx) error {
		for _, key := range []string{"/a", "/ab", "/a"} {
			id, err := tx.NextID("things")
			if err != nil {
				return err
			}
			if err := tx.Put("things", id, []byte(key)); err != nil {
				return err
			}
			if err := tx.AddToIndex("things-by-key", key, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var a, ab []uint64
	s.ViewRecords(func(tx *RecordTx) error {
		a, _ = tx.Indexed("things-by-key", "/a")
		ab, _ = tx.Indexed("things-by-key", "/ab")
		return nil
	})
	if fmt.Sprint(a) != "[1 3]" || fmt.Sprint(ab) != "[2]" {
		t.Fatalf("indexed /a %v, /ab %v", a, ab)
	}
	failed := errors.New("changed my mind")
	err = s.UpdateRecords(func(tx *RecordTx) error {
		tx.Put("things", 9, []byte("x"))
		return failed
	})
	if !errors.Is(err, failed) {
		t.Fatalf("error %v", err)
	}
	if _, err := s.GetRecord("things", 9); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("a failed transaction stored its write: %v", err)
	}
	if err := s.WriteBlob("things", 3, []byte("body")); err != nil {
		t.Fatal(err)
	}
	if got, err := s.ReadBlob("things", 3); err != nil || string(got) != "body" {
		t.Fatalf("blob %q %v", got, err)
	}
	if ids, _ := s.BlobIDs("things"); fmt.Sprint(ids) != "[3]" {
		t.Fatalf("blob ids %v", ids)
	}
	s.RemoveBlob("things", 3)
	if _, err := s.ReadBlob("things", 3); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("removed blob: %v", err)
	}
	if err := s.WriteBlob("settings", 1, nil); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("a blob named for the store's own bucket: %v", err)
	}
}

// TestMapBlobReadsWhatReadBlobReads: a mapped blob holds the bytes
// ReadBlob gives, an empty one is empty, a missing one is ErrNotFound,
// and a mapping taken before the blob is replaced keeps the old bytes
// (blobs are replaced by a rename, never written in place).
func TestMapBlobReadsWhatReadBlobReads(t *testing.T) {
	s := openTestStore(t)
	body := bytes.Repeat([]byte("package p\n\x00\xff"), 50_000)
	for id, data := range map[uint64][]byte{1: body, 2: {}} {
		if err := s.WriteBlob("things", id, data); err != nil {
			t.Fatal(err)
		}
		got, err := s.MapBlob("things", id)
		read, _ := s.ReadBlob("things", id)
		if err != nil || !bytes.Equal(got, data) || !bytes.Equal(read, data) {
			t.Fatalf("blob %d: mapped %d bytes (%v), read %d, want %d", id, len(got), err, len(read), len(data))
		}
	}
	mapped, _ := s.MapBlob("things", 1)
	if err := s.WriteBlob("things", 1, []byte("replaced")); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mapped, body) {
		t.Fatal("a mapping changed when its blob was replaced")
	}
	if _, err := s.MapBlob("things", 9); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("a missing blob: %v", err)
	}
}
