//go:build !unix

package main

import (
	"errors"
	"os"
	"os/exec"
)

// handOff runs the workbench at path with args as a child with this
// process's standard files, and exits with its exit code (no exec(2)
// here). It returns only when the workbench cannot start.
func handOff(path string, args []string) error {
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err == nil || errors.As(err, &exit) {
		os.Exit(cmd.ProcessState.ExitCode())
	}
	return err
}
