//go:build unix

package changeset

import (
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// holdFolders says a transaction may hold its folders open (see folders).
const holdFolders = true

// createIn writes data to the new file name (one component) in the folder
// d, with permission bits perm, refusing a name that exists (a symlink
// included). It uses the system calls themselves rather than an os.File:
// opening an os.File also asks the file's flags and offers it to the
// poller (fcntl, epoll_ctl), and a 200-file apply writes 200 of them.
func createIn(d *os.File, name string, data []byte, perm fs.FileMode) error {
	fd, err := retryEINTR(func() (int, error) {
		return unix.Openat(int(d.Fd()), name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
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
	if err == nil {
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
