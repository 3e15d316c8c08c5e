package workerbuild

import (
	"context"
	"io"
	"os/exec"
	"sync"
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

// tailBuffer keeps the last 4 KiB written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - 4<<10; over > 0 {
		t.buf = t.buf[over:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

var _ io.Writer = (*tailBuffer)(nil)
