package task

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// vcsStatusError starts the line the go command prints when it cannot
// read the version control status it stamps into a binary (a .git folder
// that git rejects: half made, a broken config, no HEAD), followed by
// "Use -buildvcs=false to disable VCS stamping.". It stops before
// compiling anything, so the person would see no compile errors at all.
const vcsStatusError = "error obtaining VCS status"

// vcsRetryNote is the line a run shows before it runs again without VCS
// stamping.
const vcsRetryNote = "trestle: go could not read the project's version control status (the lines above): " +
	"running the same command again with -buildvcs=false, so the result carries no VCS stamp. " +
	"Repair the .git folder (`git status` says what is wrong) or remove it to build with the stamp."

// retryWithoutVCS starts r's command once more with -buildvcs=false
// after its go subcommand when the go command failed only because it
// could not read the VCS status, and returns the new process's output
// pipe; else nil. It is called from supervise's goroutine between
// attempts.
//
// Why retry rather than always pass -buildvcs=false: only go build and
// go install stamp the binaries they link; go test, go vet and go run
// never stamp, so they never stop here. A build that can stamp
// should, since the stamp is what `go version -m` shows later; a build
// that cannot should still show the person whether the code compiles,
// with the reason it is unstamped in plain view. The note says so; the
// original error stays in the output above it.
func (r *Run) retryWithoutVCS(waitErr error, onLine func(Line)) *os.File {
	if waitErr == nil || r.noVCS || !r.vcsStatusFailed() {
		return nil
	}
	out, err := r.restart(withBuildFlag(r.cmd.Args, "-buildvcs=false"))
	switch {
	case err != nil:
		r.emit("trestle: run again with -buildvcs=false: "+err.Error(), onLine)
	case out != nil:
		r.emit(vcsRetryNote, onLine) // before the new process's output: attempt reads it later
	}
	return out
}

// restart starts argv in r's folder and environment, unless r was asked
// to end; it returns the new process's output pipe, or nil.
func (r *Run) restart(argv []string) (*os.File, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.reason != "" {
		return nil, nil
	}
	cmd, out, err := startProcess(argv, r.cmd.Env, r.cmd.Dir)
	if err != nil {
		return nil, err
	}
	r.cmd, r.noVCS = cmd, true
	return out, nil
}

// vcsStatusFailed reports whether r is a go command that leaves VCS
// stamping to its default (no -buildvcs in its arguments or GOFLAGS) and
// its output says the go command could not read the VCS status.
func (r *Run) vcsStatusFailed() bool {
	if strings.TrimSuffix(filepath.Base(r.cmd.Path), ".exe") != "go" || slices.ContainsFunc(r.cmd.Args, isBuildVCSFlag) ||
		strings.Contains(goFlags(r.cmd.Env), "-buildvcs") {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.ContainsFunc(r.lines, func(l string) bool { return strings.HasPrefix(l, vcsStatusError) })
}

// isBuildVCSFlag reports whether arg sets -buildvcs.
func isBuildVCSFlag(arg string) bool {
	return strings.HasPrefix(strings.TrimLeft(arg, "-"), "buildvcs")
}

// withBuildFlag is the go command line argv with flag added right after
// its subcommand (`go build ./...` -> `go build -buildvcs=false ./...`).
// An argument, not GOFLAGS in the environment: that would replace the
// GOFLAGS the person's Go env file sets.
func withBuildFlag(argv []string, flag string) []string {
	i := 2 // after "go build"
	if len(argv) > 2 && argv[1] == "-C" {
		i = 4 // after "go -C dir build"
	} else if len(argv) > 1 && strings.HasPrefix(argv[1], "-C=") {
		i = 3
	}
	i = min(i, len(argv))
	return slices.Concat(argv[:i:i], []string{flag}, argv[i:])
}

// goFlags is the value of GOFLAGS in env (the last one wins, as in
// exec.Cmd).
func goFlags(env []string) string {
	goflags := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			goflags = v
		}
	}
	return goflags
}
