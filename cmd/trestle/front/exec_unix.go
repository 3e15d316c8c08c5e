//go:build unix

package main

import (
	"os"
	"syscall"
)

// handOff replaces this process with the workbench at path, run with args
// and this process's argv[0] (so ps shows the command as typed; the
// workbench finds itself through /proc/self/exe, not argv[0]). It returns
// only when that fails.
func handOff(path string, args []string) error {
	return syscall.Exec(path, append([]string{os.Args[0]}, args...), os.Environ())
}
