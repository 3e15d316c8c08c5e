//go:build !unix

package project

import (
	"io/fs"
	"os"
)

// readRegular returns the mode and size of the file at abs, following
// symlinks, and its content when it is a regular file of at most limit
// bytes.
func readRegular(abs string, limit int64) (data []byte, mode fs.FileMode, size int64, err error) {
	info, err := os.Stat(abs)
	if err != nil {
		return nil, 0, 0, err
	}
	if !info.Mode().IsRegular() || info.Size() > limit {
		return nil, info.Mode().Type(), info.Size(), nil
	}
	data, err = os.ReadFile(abs)
	return data, 0, int64(len(data)), err
}
