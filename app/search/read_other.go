//go:build !unix

package search

import (
	"fmt"
	"io"
	"os"
)

// readInto reads the file at abs into buf (grown when too small), refusing
// files over MaxFileBytes.
func readInto(abs string, buf []byte) ([]byte, error) {
	f, err := os.Open(abs)
	if err != nil {
		return buf[:0], err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() > MaxFileBytes {
		return buf[:0], fmt.Errorf("skip %s", abs)
	}
	size := int(info.Size())
	if cap(buf) < size {
		buf = make([]byte, 0, size)
	}
	n, err := io.ReadFull(f, buf[:size])
	if err != nil && err != io.ErrUnexpectedEOF {
		return buf[:0], err
	}
	return buf[:n], nil
}
