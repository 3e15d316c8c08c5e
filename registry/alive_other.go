//go:build !unix

package registry

import "os"

// Alive reports whether a process with this pid exists. pid <= 0 is never
// alive. Off unix this relies on os.FindProcess, which fails for a missing
// process on Windows.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
