package workerbuild

import (
	"context"
	"os/exec"
	"time"

	"trestle/app/procgroup"
)

// buildNiceness is how far below the window a build runs: it may take both
// cores for minutes, and the person goes on typing meanwhile.
const buildNiceness = 10

// buildCommand is a long command of a build (go build, the generator): in
// a process group of its own, so that cancelling the build (the manager
// closing) kills the compilers it started too.
func buildCommand(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	procgroup.Set(cmd)
	cmd.Cancel = func() error { return procgroup.Kill(cmd) }
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// lower lowers a started build command's priority (best effort; the
// processes it starts afterwards inherit it).
func lower(cmd *exec.Cmd) { procgroup.Lower(cmd, buildNiceness) }
