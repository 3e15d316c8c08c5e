package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"trestle/app/errdefs"
)

// Record is one value in a record bucket, with its id.
type Record struct {
	ID    uint64
	Value []byte
}

// recordKey encodes id as an 8-byte big-endian key, so keys sort by id.
func recordKey(id uint64) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], id)
	return k[:]
}

// checkRecordBucket refuses an empty name and the store's own buckets, so
// another package's records can never clobber recent projects or settings.
func checkRecordBucket(bucket string) error {
	if bucket == "" {
		return fmt.Errorf("record bucket name is empty: %w", errdefs.ErrInvalid)
	}
	for _, b := range allBuckets {
		if bucket == string(b) {
			return fmt.Errorf("record bucket %q belongs to the store itself: %w", bucket, errdefs.ErrInvalid)
		}
	}
	return nil
}

// recordBucket returns bucket for writing, creating it on first use.
func recordBucket(tx *bolt.Tx, bucket string) (*bolt.Bucket, error) {
	b, err := tx.CreateBucketIfNotExists([]byte(bucket))
	if err != nil {
		return nil, fmt.Errorf("create bucket %s: %w", bucket, err)
	}
	return b, nil
}

// NextRecordID returns a new id for bucket from its sequence: ids grow and
// are never handed out twice, even to different processes sharing the
// store. It is safe for concurrent use.
func (s *Store) NextRecordID(bucket string) (uint64, error) {
	if err := checkRecordBucket(bucket); err != nil {
		return 0, err
	}
	var id uint64
	err := s.update(func(tx *bolt.Tx) error {
		b, err := recordBucket(tx, bucket)
		if err != nil {
			return err
		}
		id, err = b.NextSequence()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("next id in %s: %w", bucket, err)
	}
	return id, nil
}

// PutRecord stores value as record id of bucket, replacing any earlier
// value. It is safe for concurrent use; value is copied by the store.
func (s *Store) PutRecord(bucket string, id uint64, value []byte) error {
	if err := checkRecordBucket(bucket); err != nil {
		return err
	}
	err := s.update(func(tx *bolt.Tx) error {
		b, err := recordBucket(tx, bucket)
		if err != nil {
			return err
		}
		return b.Put(recordKey(id), value)
	})
	if err != nil {
		return fmt.Errorf("put record %d in %s: %w", id, bucket, err)
	}
	return nil
}

// GetRecord returns a copy of record id of bucket, or an error wrapping
// ErrNotFound. It is safe for concurrent use.
func (s *Store) GetRecord(bucket string, id uint64) ([]byte, error) {
	if err := checkRecordBucket(bucket); err != nil {
		return nil, err
	}
	var out []byte
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			return errdefs.ErrNotFound
		}
		v := b.Get(recordKey(id))
		if v == nil {
			return errdefs.ErrNotFound
		}
		out = append([]byte{}, v...)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("get record %d in %s: %w", id, bucket, err)
	}
	return out, nil
}

// ListRecords returns copies of every record of bucket in ascending id
// order; a bucket never written to is empty, not an error. It is safe for
// concurrent use.
func (s *Store) ListRecords(bucket string) ([]Record, error) {
	if err := checkRecordBucket(bucket); err != nil {
		return nil, err
	}
	recs := []Record{}
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			if len(k) != 8 || v == nil {
				return nil // not a record: a nested bucket or a foreign key
			}
			recs = append(recs, Record{ID: binary.BigEndian.Uint64(k), Value: append([]byte{}, v...)})
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list records in %s: %w", bucket, err)
	}
	return recs, nil
}

// UpdateRecord replaces record id of bucket with fn(old) in one
// transaction, so two processes changing the same record never lose each
// other's change. A missing record is an error wrapping ErrNotFound and fn
// is not called; an error from fn leaves the record as it was and is
// returned wrapped. fn gets its own copy of old and runs while the store's
// file lock is held: it must be quick and must not use the store. It is
// safe for concurrent use.
func (s *Store) UpdateRecord(bucket string, id uint64, fn func(old []byte) ([]byte, error)) error {
	if err := checkRecordBucket(bucket); err != nil {
		return err
	}
	err := s.update(func(tx *bolt.Tx) error {
		b, err := recordBucket(tx, bucket)
		if err != nil {
			return err
		}
		old := b.Get(recordKey(id))
		if old == nil {
			return errdefs.ErrNotFound
		}
		value, err := fn(append([]byte{}, old...))
		if err != nil {
			return err
		}
		return b.Put(recordKey(id), value)
	})
	if err != nil {
		return fmt.Errorf("update record %d in %s: %w", id, bucket, err)
	}
	return nil
}

// RecordTx is one transaction over record buckets, for a change that
// spans several records, buckets or an index (a record, its index entry
// and a check of limits, all or nothing). It is only valid inside the
// function given to UpdateRecords or ViewRecords, and values it returns
// are copies. Writes through a RecordTx from ViewRecords fail.
type RecordTx struct {
	tx *bolt.Tx
}

// UpdateRecords runs fn in one write transaction: everything fn writes is
// stored together, or nothing when fn returns an error (which is returned
// as is). fn runs while the store's file lock is held: it must be quick
// and must not use the store itself. It is safe for concurrent use.
func (s *Store) UpdateRecords(fn func(*RecordTx) error) error {
	return s.update(func(tx *bolt.Tx) error { return fn(&RecordTx{tx: tx}) })
}

// ViewRecords runs fn in one read-only transaction. It is safe for
// concurrent use.
func (s *Store) ViewRecords(fn func(*RecordTx) error) error {
	return s.view(func(tx *bolt.Tx) error { return fn(&RecordTx{tx: tx}) })
}

// bucket returns bucket, creating it in a write transaction; nil when a
// read-only transaction finds none.
func (t *RecordTx) bucket(bucket string) (*bolt.Bucket, error) {
	if err := checkRecordBucket(bucket); err != nil {
		return nil, err
	}
	if b := t.tx.Bucket([]byte(bucket)); b != nil || !t.tx.Writable() {
		return b, nil
	}
	return recordBucket(t.tx, bucket)
}

// Get returns a copy of record id of bucket, or nil when there is none.
func (t *RecordTx) Get(bucket string, id uint64) ([]byte, error) {
	b, err := t.bucket(bucket)
	if err != nil || b == nil {
		return nil, err
	}
	if v := b.Get(recordKey(id)); v != nil {
		return append([]byte{}, v...), nil
	}
	return nil, nil
}

// Put stores value as record id of bucket.
func (t *RecordTx) Put(bucket string, id uint64, value []byte) error {
	b, err := t.bucket(bucket)
	if err != nil {
		return err
	}
	return b.Put(recordKey(id), value)
}

// Delete removes record id of bucket; a missing record is no error.
func (t *RecordTx) Delete(bucket string, id uint64) error {
	b, err := t.bucket(bucket)
	if err != nil || b == nil {
		return err
	}
	return b.Delete(recordKey(id))
}

// NextID returns a new id from bucket's sequence, as NextRecordID.
func (t *RecordTx) NextID(bucket string) (uint64, error) {
	b, err := t.bucket(bucket)
	if err != nil {
		return 0, err
	}
	return b.NextSequence()
}

// Sequence is the last id handed out for bucket (0 for none).
func (t *RecordTx) Sequence(bucket string) (uint64, error) {
	b, err := t.bucket(bucket)
	if err != nil || b == nil {
		return 0, err
	}
	return b.Sequence(), nil
}

// RaiseSequence makes bucket's next id greater than n, so ids carried over
// from another bucket are never handed out again.
func (t *RecordTx) RaiseSequence(bucket string, n uint64) error {
	b, err := t.bucket(bucket)
	if err != nil {
		return err
	}
	if b.Sequence() >= n {
		return nil
	}
	return b.SetSequence(n)
}

// IDs returns the ids of bucket's records in ascending order, without
// reading their values.
func (t *RecordTx) IDs(bucket string) ([]uint64, error) {
	b, err := t.bucket(bucket)
	if err != nil || b == nil {
		return nil, err
	}
	var ids []uint64
	c := b.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) == 8 {
			ids = append(ids, binary.BigEndian.Uint64(k))
		}
	}
	return ids, nil
}

// DropBucket removes bucket and everything in it; a missing one is no error.
func (t *RecordTx) DropBucket(bucket string) error {
	if err := checkRecordBucket(bucket); err != nil {
		return err
	}
	if err := t.tx.DeleteBucket([]byte(bucket)); err != nil && !errors.Is(err, bolterrors.ErrBucketNotFound) {
		return err
	}
	return nil
}

// indexKey is key, a NUL and id big-endian: the entries of one key sort
// together by id.
func indexKey(key string, id uint64) []byte {
	return append(append([]byte(key), 0), recordKey(id)...)
}

// AddToIndex files id under key in the index bucket, so Indexed(bucket,
// key) finds it without reading other keys' records.
func (t *RecordTx) AddToIndex(bucket, key string, id uint64) error {
	b, err := t.bucket(bucket)
	if err != nil {
		return err
	}
	return b.Put(indexKey(key, id), []byte{})
}

// RemoveFromIndex drops id from key in the index bucket.
func (t *RecordTx) RemoveFromIndex(bucket, key string, id uint64) error {
	b, err := t.bucket(bucket)
	if err != nil || b == nil {
		return err
	}
	return b.Delete(indexKey(key, id))
}

// Indexed returns the ids filed under key in the index bucket, ascending.
func (t *RecordTx) Indexed(bucket, key string) ([]uint64, error) {
	b, err := t.bucket(bucket)
	if err != nil || b == nil {
		return nil, err
	}
	prefix := append([]byte(key), 0)
	var ids []uint64
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if rest := k[len(prefix):]; len(rest) == 8 {
			ids = append(ids, binary.BigEndian.Uint64(rest))
		}
	}
	return ids, nil
}
