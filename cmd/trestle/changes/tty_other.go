//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package changes

import "os"

// isatty reports whether f is a character device: the best guess where
// there is no terminal ioctl to ask.
func isatty(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
