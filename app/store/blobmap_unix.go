//go:build unix

package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the file at path read-only, for MapBlob.
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.Size() == 0 {
		return []byte{}, nil
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(info.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return os.ReadFile(path) // a file system that cannot map it
	}
	return data, nil
}
