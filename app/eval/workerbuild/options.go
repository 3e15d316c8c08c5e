package workerbuild

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"trestle/app/store"
)

// Options says what to build a worker for: a project selection.
type Options struct {
	Root   string            // project root (holds go.mod, or not)
	Module string            // the project's module path
	Tags   []string          // the selection's build tags
	Env    map[string]string // the selection's environment
	// CacheDir holds generated sources and worker binaries; "" is
	// DefaultCacheDir().
	CacheDir string
	// Compile names project packages that look interpretable but that the
	// interpreter failed to import although the Go compiler accepts them
	// (yaegi has bugs), with what it said: they are compiled in.
	Compile map[string]string
	// Link names the project's native packages that are linked only on
	// import (Plan.OnImport) that this worker links; the others are left
	// out, so that their init runs only in a worker for an input that
	// imports them.
	Link []string
	// Interpret names packages left out of the native set (.trestle.json's
	// "interpret"): interpreted from source instead.
	Interpret []string
}

// environ is the environment of the go commands of a build: ours, the
// selection's, GOWORK=off (-modfile, see build.go, cannot be used in
// workspace mode, and the worker is the project's alone) and GOFLAGS with
// goflags added to the ones already set.
func (o Options) environ(goflags ...string) []string {
	env := os.Environ()
	keys := make([]string, 0, len(o.Env))
	for k := range o.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	flags := os.Getenv("GOFLAGS")
	for _, k := range keys {
		env = append(env, k+"="+o.Env[k])
		if k == "GOFLAGS" {
			flags = o.Env[k]
		}
	}
	if len(goflags) > 0 {
		flags = strings.TrimSpace(flags + " " + strings.Join(goflags, " "))
	}
	return append(env, "GOWORK=off", "GOFLAGS="+flags)
}

// DefaultCacheDir is the per-user folder for worker builds:
// $TRESTLE_CONFIG_DIR/cache/eval when that is set (tests, portable
// installs), else the user cache folder's trestle/eval.
func DefaultCacheDir() (string, error) {
	if dir := os.Getenv("TRESTLE_CONFIG_DIR"); dir != "" {
		return filepath.Join(dir, "cache", "eval"), nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		cfg, cerr := store.ConfigDir()
		if cerr != nil {
			return "", fmt.Errorf("find a cache folder for evaluator builds: %w", err)
		}
		return filepath.Join(cfg, "cache", "eval"), nil
	}
	return filepath.Join(dir, "trestle", "eval"), nil
}

func (o Options) cacheDir() (string, error) {
	if o.CacheDir != "" {
		return o.CacheDir, nil
	}
	return DefaultCacheDir()
}

// toolchain is what `go env` says about the Go toolchain in use, and the
// settings of the environment that change what it builds.
type toolchain struct {
	GOVERSION, GOOS, GOARCH, GOROOT    string
	GOFLAGS, GOEXPERIMENT, CGO_ENABLED string
}

// settings are the go command's settings that change a build's output
// besides the version and platform, for cache keys.
func (t toolchain) settings() string {
	return fmt.Sprintf("GOFLAGS=%q GOEXPERIMENT=%q CGO_ENABLED=%q", t.GOFLAGS, t.GOEXPERIMENT, t.CGO_ENABLED)
}

var (
	envMu    sync.Mutex
	envCache = map[string]toolchain{}
)

// goEnv asks `go env` once per environment (the selection's env can pick
// another toolchain with GOTOOLCHAIN or PATH).
func goEnv(ctx context.Context, o Options) (toolchain, error) {
	env := o.environ()
	key := strings.Join(env, "\x00") + "\x00" + o.Root
	envMu.Lock()
	t, ok := envCache[key]
	envMu.Unlock()
	if ok {
		return t, nil
	}
	cmd := exec.CommandContext(ctx, "go", "env", "-json", "GOVERSION", "GOOS", "GOARCH", "GOROOT", "GOFLAGS", "GOEXPERIMENT", "CGO_ENABLED")
	cmd.Dir, cmd.Env = o.Root, env
	out, err := cmd.Output()
	if err != nil {
		return t, fmt.Errorf("ask the Go toolchain about itself (go env): %w", err)
	}
	if err := json.Unmarshal(out, &t); err != nil {
		return t, fmt.Errorf("read go env's answer: %w", err)
	}
	envMu.Lock()
	envCache[key] = t
	envMu.Unlock()
	return t, nil
}
