//go:build unix

package procgroup

import (
	"errors"
	"os/exec"
	"syscall"
)

// Set makes cmd start as the leader of a new process group. Call it before
// cmd.Start; it keeps any other SysProcAttr settings.
func Set(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pgid = 0
}

// Terminate sends SIGTERM to cmd's whole process group. A group that is
// already gone is not an error. Safe for concurrent use once cmd has started.
func Terminate(cmd *exec.Cmd) error { return signal(cmd, syscall.SIGTERM) }

// Kill sends SIGKILL to cmd's whole process group. A group that is already
// gone is not an error. Safe for concurrent use once cmd has started.
func Kill(cmd *exec.Cmd) error { return signal(cmd, syscall.SIGKILL) }

func signal(cmd *exec.Cmd, sig syscall.Signal) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, sig)
	if err == nil || errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// Lower lowers the scheduling priority of cmd's process (started) by
// niceness steps, so that a runaway child cannot starve the window's UI
// thread of the cores. Failing to lower it is not an error worth stopping
// for; the error is returned for the caller to log.
func Lower(cmd *exec.Cmd, niceness int) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Setpriority(syscall.PRIO_PROCESS, cmd.Process.Pid, niceness)
}
