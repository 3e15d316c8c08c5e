//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package changes

import (
	"os"

	"golang.org/x/sys/unix"
)

// isatty reports whether f is a terminal (not merely a character device
// such as /dev/null).
func isatty(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TIOCGETA)
	return err == nil
}
