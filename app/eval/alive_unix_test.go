//go:build unix

package eval

import "syscall"

// processAlive reports whether pid exists (a zombie counts as gone: it was reaped by Wait).
func processAlive(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}
