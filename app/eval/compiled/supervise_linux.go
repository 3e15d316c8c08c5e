package compiled

import (
	"os/exec"
	"syscall"
)

// setParentDeath has the kernel send the supervisor SIGTERM when Trestle
// goes away (it then kills the program and what it started).
func setParentDeath(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
}
