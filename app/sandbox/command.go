package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"trestle/app/procgroup"
)

// ErrNoSandbox is wrapped by Command's error when bubblewrap is missing or
// cannot make a sandbox on this machine.
var ErrNoSandbox = errors.New("no sandbox")

// Options say how Command runs a command.
type Options struct {
	// Unsandboxed runs the command directly, in the staging copy but
	// without bubblewrap: it can then write the real project and
	// anything else the person can. Only on the person's explicit choice.
	Unsandboxed bool
	// Writable lists more folders the command may write (an agent's own
	// state folder, say ~/.claude). The real project stays read-only even
	// when inside one of them.
	Writable []string
	// Hidden lists folders the command must not even read: each is an
	// empty folder in the sandbox (Trestle's registry of windows, whose
	// tokens would let the agent attach to a window outside the sandbox).
	Hidden []string
	// Bwrap is bubblewrap's path; "" finds bwrap on PATH.
	Bwrap string
}

// Command returns name with args to run inside s's sandbox, not started:
// bubblewrap with the whole file system read-only, the staging copy, the
// session's temporary folder and opts.Writable writable, the real project
// read-only, the network shared, and its own pid namespace, so that when
// bubblewrap dies every process inside dies with it. Its working folder is
// dir (the staging copy when ""), which must be inside the staging copy.
// It starts as the leader of its own process group (kill it with
// procgroup.Kill). env is added to the environment. Without bubblewrap the
// error wraps ErrNoSandbox and says how to install it and that
// Options.Unsandboxed exists.
func Command(ctx context.Context, s *Stage, opts Options, dir string, env []string, name string, args ...string) (*exec.Cmd, error) {
	if dir == "" {
		dir = s.Dir
	}
	if !within(s.Dir, dir) {
		return nil, fmt.Errorf("run %s in %s: the folder is outside the staging copy %s: %w", name, dir, s.Dir, ErrOutside)
	}
	env = append(append(os.Environ(), "TMPDIR="+s.Tmp, "GOCACHE="+filepath.Join(s.Tmp, "go-build")), env...)
	var cmd *exec.Cmd
	if opts.Unsandboxed {
		cmd = exec.CommandContext(ctx, name, args...)
	} else {
		bwrap, err := findBwrap(opts.Bwrap)
		if err != nil {
			return nil, err
		}
		cmd = exec.CommandContext(ctx, bwrap, append(append(bwrapArgs(s, opts, dir), "--", name), args...)...)
	}
	cmd.Dir = dir
	cmd.Env = env
	procgroup.Set(cmd)
	cmd.Cancel = func() error { return procgroup.Kill(cmd) }
	// A process that escaped the group (unsandboxed: setsid) may hold
	// the output pipes open; Wait stops waiting for them after this.
	cmd.WaitDelay = waitDelay
	return cmd, nil
}

// waitDelay bounds how long Wait waits for a command's output after it
// exited or was killed.
const waitDelay = 2 * time.Second

// bwrapArgs are bubblewrap's options for a command in s. Later mounts
// win over earlier ones, so the project's read-only mount comes after the
// writable folders that might hold it.
func bwrapArgs(s *Stage, opts Options, dir string) []string {
	args := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
		"--unshare-pid", "--die-with-parent", "--new-session"}
	for _, w := range opts.Writable {
		if _, err := os.Stat(w); err == nil {
			args = append(args, "--bind", w, w)
		}
	}
	for _, h := range opts.Hidden {
		if info, err := os.Stat(h); err == nil && info.IsDir() {
			args = append(args, "--tmpfs", h)
		}
	}
	args = append(args, "--ro-bind", s.Project, s.Project, "--bind", s.Dir, s.Dir, "--bind", s.Tmp, s.Tmp)
	return append(args, "--chdir", dir)
}

// findBwrap returns bubblewrap's path, checked to make a sandbox here.
func findBwrap(path string) (string, error) {
	if path == "" {
		p, err := exec.LookPath("bwrap")
		if err != nil {
			return "", fmt.Errorf("bubblewrap (bwrap) is not installed, so the agent cannot be sandboxed: "+
				"install it (Debian and Ubuntu: sudo apt-get install bubblewrap), or run the agent unsandboxed, "+
				"where it can write the project and everything else you can: %w", ErrNoSandbox)
		}
		path = p
	}
	if err := probe(path); err != nil {
		return "", err
	}
	return path, nil
}

// probed holds the bubblewrap paths that made a sandbox once, so a
// session's terminals do not each pay for a probe.
var probed sync.Map

// probe checks that bubblewrap at path can make a sandbox (a machine may
// forbid the user namespaces it needs).
func probe(path string) error {
	if _, ok := probed.Load(path); ok {
		return nil
	}
	cmd := exec.Command(path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--", "true")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("bubblewrap (%s) cannot make a sandbox on this machine (%v: %s), so the agent cannot be sandboxed: "+
			"allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1), or run the agent unsandboxed, "+
			"where it can write the project and everything else you can: %w", path, err, strings.TrimSpace(stderr.String()), ErrNoSandbox)
	}
	probed.Store(path, true)
	return nil
}

// ErrOutside is wrapped by errors about a path outside the staging copy.
var ErrOutside = errors.New("outside the staging copy")

// within reports whether target is root or below it, by path components.
func within(root, target string) bool {
	rel, err := filepath.Rel(root, target)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}
