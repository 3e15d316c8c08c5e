//go:build unix

package changeset

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f, held until f is closed or its
// process dies, waiting for none: false when another holds it.
func lockFile(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
