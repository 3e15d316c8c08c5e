package app

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
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
		return fmt.Errorf("record bucket name is empty: %w", ErrInvalid)
	}
	for _, b := range allBuckets {
		if bucket == string(b) {
			return fmt.Errorf("record bucket %q belongs to the store itself: %w", bucket, ErrInvalid)
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
			return ErrNotFound
		}
		v := b.Get(recordKey(id))
		if v == nil {
			return ErrNotFound
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
			return ErrNotFound
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
