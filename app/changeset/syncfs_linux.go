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
