package project

import (
	"os"
	"sync"
	"time"
	"unsafe"
)

// Sums remembers the sha256 and line count of the texts Read takes from
// disk, per version of each file, so that reading an unchanged file again
// does not hash it again (a 7 MiB file costs milliseconds to hash). The
// zero Sums is ready; safe for concurrent use.
//
// A file's version is its device, inode, size, modification and change
// times (fileVersion; the change time is one no program can set back).
// A read is remembered only when the file's version is the same before
// and after it, and only when the file last changed sumCutoff or more
// before it: as cmd/go's file hash cache does not trust a modification
// time that recent, since a second write within the file system's
// timestamp granularity may keep the same times. Where the system gives
// no change time, nothing is remembered.
type Sums struct {
	mu     sync.Mutex
	byPath map[string]summed
	hashed int // how many texts fileText hashed, for the tests
}

// summed is what Sums remembers of one file.
type summed struct {
	version fileVersion
	sha256  string
	lines   int
}

const (
	// sumCutoff is how long ago a file must have last changed for its
	// read to be remembered: more than any file system's timestamp
	// granularity (FAT's is 2 s).
	sumCutoff = 2 * time.Second
	// maxSums bounds the files remembered (about 200 bytes each).
	maxSums = 4096
)

// fileText is NewFileText(rel, string(data)) for data read from abs, whose
// stat before the read (taken at start or later) was before.
func (s *Sums) fileText(rel, abs string, start time.Time, before os.FileInfo, data []byte) FileText {
	text := unsafe.String(unsafe.SliceData(data), len(data)) // data is taken, as by fileTextOf
	if s == nil {
		return NewFileText(rel, text)
	}
	v, ok := versionOf(before)
	if ok {
		after, err := os.Stat(abs)
		ok = err == nil && v.size == int64(len(data))
		if ok {
			after, _ := versionOf(after)
			ok = after == v
		}
	}
	if !ok {
		return s.hash(abs, rel, text, fileVersion{})
	}
	s.mu.Lock()
	got, found := s.byPath[abs]
	s.mu.Unlock()
	if found && got.version == v {
		return FileText{Path: rel, Text: text, Lines: got.lines, SHA256: got.sha256}
	}
	if start.Sub(v.lastChange()) < sumCutoff {
		v = fileVersion{} // too recent to vouch for
	}
	return s.hash(abs, rel, text, v)
}

// hash is NewFileText(rel, text), remembered for abs at version v unless
// v is the zero version (which forgets abs).
func (s *Sums) hash(abs, rel, text string, v fileVersion) FileText {
	ft := NewFileText(rel, text)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hashed++
	if v == (fileVersion{}) {
		delete(s.byPath, abs)
		return ft
	}
	if s.byPath == nil {
		s.byPath = map[string]summed{}
	}
	if _, ok := s.byPath[abs]; !ok && len(s.byPath) >= maxSums {
		for k := range s.byPath { // any one: the bound matters, not which
			delete(s.byPath, k)
			break
		}
	}
	s.byPath[abs] = summed{version: v, sha256: ft.SHA256, lines: ft.Lines}
	return ft
}

// fileVersion names one version of a file's content (see Sums).
type fileVersion struct {
	dev, ino uint64
	size     int64
	modified int64 // Unix nanoseconds
	changed  int64 // Unix nanoseconds
}

// lastChange is the later of the version's modification and change times.
func (v fileVersion) lastChange() time.Time {
	return time.Unix(0, max(v.modified, v.changed))
}
