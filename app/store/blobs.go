package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"trestle/app/errdefs"
)

// Blobs are large write-once values kept as files beside the database
// (in PATH.blobs/BUCKET/ID), so the database stays small: every Trestle
// process opens it for each operation, and a list never pages in file
// bodies. A blob is written before the record that names it and removed
// after the record is; both happen inside UpdateRecords, under the
// store's lock.

// blobDir is the folder of bucket's blobs.
func (s *Store) blobDir(bucket string) string {
	return filepath.Join(s.path+".blobs", bucket)
}

// blobPath is the file of blob id of bucket.
func (s *Store) blobPath(bucket string, id uint64) string {
	return filepath.Join(s.blobDir(bucket), strconv.FormatUint(id, 10))
}

// WriteBlob stores data as blob id of bucket, replacing any earlier one:
// written to a temporary file, flushed, then renamed, so a crash leaves the
// old blob or the new one, never part of one. Safe for concurrent use with
// distinct ids.
func (s *Store) WriteBlob(bucket string, id uint64, data []byte) error {
	if err := checkRecordBucket(bucket); err != nil {
		return err
	}
	dir := s.blobDir(bucket)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("write blob %d of %s: %w", id, bucket, err)
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("write blob %d of %s: %w", id, bucket, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Rename(f.Name(), s.blobPath(bucket, id))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write blob %d of %s: %w", id, bucket, err)
	}
	return syncDir(dir)
}

// syncDir flushes a folder's entries (a rename into it) to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("flush folder %s: %w", dir, err)
	}
	return nil
}

// ReadBlob returns blob id of bucket, or an error wrapping ErrNotFound.
// Safe for concurrent use.
func (s *Store) ReadBlob(bucket string, id uint64) ([]byte, error) {
	if err := checkRecordBucket(bucket); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(s.blobPath(bucket, id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("blob %d of %s: %w", id, bucket, errdefs.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read blob %d of %s: %w", id, bucket, err)
	}
	return data, nil
}

// MapBlob is ReadBlob without the copy, for a process that lives for one
// short command (`trestle changes apply`): the file is mapped read-only
// and never unmapped, so its bytes stay in the process's address space
// until it ends. A blob file is only ever replaced by a rename, never
// written in place, so the mapping keeps the bytes it had. Reading a
// 200-file set's 1.6 MB of bodies into fresh memory was about a twentieth
// of such an apply's time (a page fault per 4 KB page, and the copy).
func (s *Store) MapBlob(bucket string, id uint64) ([]byte, error) {
	if err := checkRecordBucket(bucket); err != nil {
		return nil, err
	}
	data, err := mapFile(s.blobPath(bucket, id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("blob %d of %s: %w", id, bucket, errdefs.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read blob %d of %s: %w", id, bucket, err)
	}
	return data, nil
}

// RemoveBlob removes blob id of bucket; a missing one is no error.
func (s *Store) RemoveBlob(bucket string, id uint64) error {
	if err := checkRecordBucket(bucket); err != nil {
		return err
	}
	if err := os.Remove(s.blobPath(bucket, id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove blob %d of %s: %w", id, bucket, err)
	}
	return nil
}

// BlobIDs returns the ids of bucket's blobs, for removing those no record
// names, and removes temporary files a killed write left. Call it inside
// UpdateRecords, so no write of a blob is under way.
func (s *Store) BlobIDs(bucket string) ([]uint64, error) {
	if err := checkRecordBucket(bucket); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(s.blobDir(bucket))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list blobs of %s: %w", bucket, err)
	}
	var ids []uint64
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			os.Remove(filepath.Join(s.blobDir(bucket), e.Name()))
			continue
		}
		if id, err := strconv.ParseUint(e.Name(), 10, 64); err == nil {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// Folder returns a private folder (0700) beside the database named for
// name, creating it: for files that need more than a blob, like a
// journal held locked while it is in use. name is checked as a bucket name.
func (s *Store) Folder(name string) (string, error) {
	if err := checkRecordBucket(name); err != nil {
		return "", err
	}
	dir := s.blobDir(name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create folder %s: %w", dir, err)
	}
	return dir, nil
}
