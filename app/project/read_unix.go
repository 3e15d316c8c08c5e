//go:build unix

package project

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// readRegular reads the file at abs with plain system calls (open, fstat,
// read, close) rather than os.Stat and os.ReadFile: an *os.File registers
// with the runtime's poller and os.Stat is a walk of its own, which for
// the 200 files an apply checks cost more than the reads. It returns the
// file's mode and size, and its content only when it is a regular file of
// at most limit bytes. O_NONBLOCK: a FIFO swapped in is not waited on;
// O_NOFOLLOW: abs is resolved, so a symlink there leads nowhere (Resolve
// keeps those as they are; they read as missing) or was swapped in since
// (not followed: reported as its mode).
func readRegular(abs string, limit int64) (data []byte, mode fs.FileMode, size int64, err error) {
	fd, err := unix.Open(abs, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_NOFOLLOW, 0)
	if err == unix.ELOOP { // a symlink: one that leads nowhere is no file, as os.Stat says
		if _, statErr := os.Stat(abs); errors.Is(statErr, fs.ErrNotExist) {
			return nil, 0, 0, statErr
		}
		return nil, fs.ModeSymlink, 0, nil
	}
	if err != nil {
		return nil, 0, 0, &fs.PathError{Op: "open", Path: abs, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, 0, 0, &fs.PathError{Op: "stat", Path: abs, Err: err}
	}
	mode, size = modeOf(uint32(st.Mode)), st.Size
	if !mode.IsRegular() || size > limit {
		return nil, mode, size, nil
	}
	data = make([]byte, size+1) // one more, to see the end of a file that grew meanwhile
	n := 0
	for {
		if n == len(data) {
			data = append(data, make([]byte, 4096)...)
		}
		m, err := unix.Read(fd, data[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, mode, size, &fs.PathError{Op: "read", Path: abs, Err: err}
		}
		if m == 0 {
			return data[:n], mode, int64(n), nil
		}
		n += m
	}
}

// modeOf turns a stat mode into an fs.FileMode's type bits.
func modeOf(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}
