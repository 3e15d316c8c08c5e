//go:build unix

package main

import (
	"os"
	"syscall"
)

// handOff replaces this process with the workbench at path, run with args.
// It returns only when that fails.
func handOff(path string, args []string) error {
	return syscall.Exec(path, append([]string{path}, args...), os.Environ())
}
