package project

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"
	"unsafe"

	"trestle/app/errdefs"
)

// Limits on what a project read or listing may return.
const (
	// MaxReadBytes is the largest file ReadFile returns: bigger files are
	// generated data or logs, and sending them to an agent costs more than it helps.
	MaxReadBytes = 8 << 20
	// DefaultListLimit and MaxListLimit bound ListFiles.
	DefaultListLimit = 1000
	MaxListLimit     = 20000
)

// FileText is the text of one project file.
type FileText struct {
	Path   string // project-relative, forward slashes
	Text   string
	Lines  int
	SHA256 string // hex of the bytes of Text
}

// NewFileText describes text as the content of the project file rel.
func NewFileText(rel, text string) FileText {
	sum := sha256.Sum256([]byte(text))
	return FileText{Path: rel, Text: text, Lines: CountLines(text), SHA256: hex.EncodeToString(sum[:])}
}

// fileTextOf is NewFileText of data, which it takes: the text shares
// data's memory (data was read for it alone and is never written again),
// so a read costs the file's bytes once, not twice.
func fileTextOf(rel string, data []byte) FileText {
	sum := sha256.Sum256(data)
	text := unsafe.String(unsafe.SliceData(data), len(data))
	return FileText{Path: rel, Text: text, Lines: CountLines(text), SHA256: hex.EncodeToString(sum[:])}
}

// ReadFile confines name (ResolveShown) and reads it from disk (Read).
// A caller that already holds the Path calls Read.
func (p *Project) ReadFile(name string) (FileText, error) {
	cp, err := p.ResolveShown(name)
	if err != nil {
		return FileText{}, err
	}
	return p.Read(cp)
}

// Read reads a project file from disk. It refuses the zero Path, git's
// metadata (see ResolveShown), folders, binary files (a NUL byte in the
// first 8 KiB) and files over MaxReadBytes.
func (p *Project) Read(cp Path) (FileText, error) { return p.ReadSummed(cp, nil) }

// ReadSummed is Read with sums, which spares hashing a file read before
// and unchanged since (nil sums: hash every read).
func (p *Project) ReadSummed(cp Path, sums *Sums) (FileText, error) {
	if cp.IsZero() {
		return FileText{}, fmt.Errorf("read: no path was resolved: %w", errdefs.ErrInvalid)
	}
	if err := cp.Shown(); err != nil {
		return FileText{}, err
	}
	rel, abs, start := cp.rel, cp.abs, time.Now()
	var before os.FileInfo
	if sums != nil { // the version sums may vouch for: taken before the read
		before, _ = os.Stat(abs)
	}
	data, mode, size, err := readRegular(abs, MaxReadBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return FileText{}, errdefs.Errorf(errdefs.ErrNotFound, "read %s: no such file in the project (trestle_files lists them)", rel)
	case err != nil:
		return FileText{}, fmt.Errorf("read %s: %w", rel, err)
	case mode.IsDir():
		return FileText{}, errdefs.Errorf(errdefs.ErrInvalid, "read %s: it is a folder; list it with trestle_files", rel)
	case mode&fs.ModeSymlink != 0: // Resolve followed every symlink: this one was swapped in since
		return FileText{}, errdefs.Errorf(errdefs.ErrInvalid, "read %s: it became a symlink after its path was checked; read it again", rel)
	case !mode.IsRegular(): // a FIFO or device would block the read, or never end
		return FileText{}, errdefs.Errorf(errdefs.ErrInvalid, "read %s: not a regular file (%v)", rel, mode.Type())
	case size > MaxReadBytes:
		return FileText{}, fmt.Errorf("read %s: %d bytes is over the %d byte limit: %w", rel, size, MaxReadBytes, errdefs.ErrTooLarge)
	}
	if IsBinary(data) {
		return FileText{}, fmt.Errorf("read %s: binary file (NUL bytes), not text: %w", rel, errdefs.ErrInvalid)
	}
	if sums == nil || before == nil {
		return fileTextOf(rel, data), nil
	}
	return sums.fileText(rel, abs, start, before, data), nil
}

// IsBinary reports whether data looks binary: a NUL byte in its first 8 KiB.
func IsBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8<<10)], 0) >= 0
}

// CountLines counts lines the way an editor shows them: "" is one empty
// line, and a final newline does not start a counted line.
func CountLines(text string) int {
	n := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") || text == "" {
		n++
	}
	return n
}

// SliceLines returns lines start..end (1-based, inclusive) of text. end 0
// means to the last line; an end past the last line is clamped.
func SliceLines(text string, start, end int) (string, error) {
	total := CountLines(text)
	if start < 1 {
		start = 1
	}
	if end == 0 || end > total {
		end = total
	}
	if start > total {
		return "", fmt.Errorf("start_line %d is past the last line (%d): %w", start, total, errdefs.ErrInvalid)
	}
	if end < start {
		return "", fmt.Errorf("end_line %d is before start_line %d: %w", end, start, errdefs.ErrInvalid)
	}
	return text[lineStart(text, start):lineStart(text, end+1)], nil
}

// lineStart is the offset in text of line n (1-based), or len(text) past
// the last line.
func lineStart(text string, n int) int {
	off := 0
	for range n - 1 {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	return off
}
