//go:build linux

package changeset

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncfsFrom is how many files make one syncfs cheaper than an fsync each:
// the disk flushes everything dirty once instead of once per file.
const syncfsFrom = 16

// syncFS flushes the file system that holds name to disk.
func syncFS(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}

// sameFileSystem reports whether the folders a and b are on one file
// system, so that one syncfs flushes both.
func sameFileSystem(a, b string) bool {
	var sa, sb unix.Stat_t
	return unix.Stat(a, &sa) == nil && unix.Stat(b, &sb) == nil && sa.Dev == sb.Dev
}
