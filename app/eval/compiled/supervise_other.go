//go:build !linux

package compiled

import "os/exec"

// setParentDeath does nothing where the supervisor is not used.
func setParentDeath(*exec.Cmd) {}
