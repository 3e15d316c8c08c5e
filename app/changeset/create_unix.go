//go:build unix

package changeset

import (
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// holdFolders says a transaction may hold its folders open (see folders).
const holdFolders = true

// createIn writes data to the new file name (one component) in the folder
// d, with permission bits perm, refusing a name that exists (a symlink
// included). The file is created with perm (less what the umask takes
// away: never more open than the file it will replace) and given perm
// whole with an fchmod only when the umask took something (a
// group-writable file under umask 022): the fchmod of every file of a
// 200-file apply was 200 system calls that changed nothing. It uses the
// system calls themselves rather than an os.File: opening an os.File also
// asks the file's flags and offers it to the poller (fcntl, epoll_ctl),
// and a 200-file apply writes 200 of them.
func createIn(d *os.File, name string, data []byte, perm fs.FileMode) error {
	fd, err := retryEINTR(func() (int, error) {
		return unix.Openat(int(d.Fd()), name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	})
	if err != nil {
		return &fs.PathError{Op: "create", Path: name, Err: err}
	}
	for len(data) > 0 && err == nil {
		var n int
		n, err = retryEINTR(func() (int, error) { return unix.Write(fd, data) })
		switch {
		case err != nil:
		case n <= 0:
			err = io.ErrShortWrite
		default:
			data = data[n:]
		}
	}
	if err == nil && perm.Perm()&^processUmask() != perm.Perm() {
		_, err = retryEINTR(func() (int, error) { return 0, unix.Fchmod(fd, uint32(perm.Perm())) })
	}
	if closeErr := unix.Close(fd); err == nil {
		err = closeErr
	}
	if err != nil {
		return &fs.PathError{Op: "write", Path: name, Err: err}
	}
	return nil
}

// retryEINTR calls fn again while a signal interrupts it.
func retryEINTR(fn func() (int, error)) (int, error) {
	for {
		n, err := fn()
		if err != unix.EINTR {
			return n, err
		}
	}
}

// renameIn renames a to b, both names in the folder d.
func renameIn(d *os.File, a, b string) error {
	fd := int(d.Fd())
	if _, err := retryEINTR(func() (int, error) { return 0, unix.Renameat(fd, a, fd, b) }); err != nil {
		return &os.LinkError{Op: "renameat", Old: a, New: b, Err: err}
	}
	return nil
}

// processUmask is the process's umask, read once from /proc/self/status
// (Linux 4.7 and later; setting it to read it back would race with files
// other goroutines create), or 0o777 where it cannot be read, which makes
// createIn always fchmod.
var processUmask = sync.OnceValue(readUmask)

// readUmask reads the umask for processUmask.
func readUmask() fs.FileMode {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0o777
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "Umask:"); ok {
			if n, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
				return fs.FileMode(n) & fs.ModePerm
			}
		}
	}
	return 0o777
}
