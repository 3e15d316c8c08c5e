//go:build unix

package registry

import (
	"errors"
	"syscall"
)

// Alive reports whether a process with this pid exists. A pid owned by
// another user counts as alive. pid <= 0 is never alive.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
