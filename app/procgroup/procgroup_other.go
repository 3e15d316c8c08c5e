//go:build !unix

package procgroup

import (
	"errors"
	"os"
	"os/exec"
)

// Set does nothing where process groups are not supported.
func Set(cmd *exec.Cmd) {}

// Terminate kills the leader: there is no gentle signal here.
func Terminate(cmd *exec.Cmd) error { return Kill(cmd) }

// Kill kills the leader process. A process that is already gone is not an error.
func Kill(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}

// Lower does nothing where priorities are not supported this way.
func Lower(cmd *exec.Cmd, niceness int) error { return nil }
