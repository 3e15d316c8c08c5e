package testfix

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// goSettingsKept are the go command's settings a test binary keeps from
// the caller's environment and Go env file when RunIsolated points HOME
// and the Go env file elsewhere. The caches and GOPATH only make a run
// faster (their contents are keyed by what they hold), and the proxy
// settings only say how this machine reaches modules; none of them
// changes what a test sees.
var goSettingsKept = []string{
	"GOCACHE", "GOMODCACHE", "GOPATH",
	"GOPROXY", "GOSUMDB", "GOPRIVATE", "GONOPROXY", "GONOSUMDB", "GOINSECURE",
}

// RunIsolated runs the tests of m with the user's folders replaced by
// new empty ones, and returns m.Run's exit code; every test package's
// TestMain calls it, so no test reads or writes the person's real
// configuration: not Trestle's (store, registry), not Fyne's
// preferences, not git's global config, not Go's env file (where a
// GOFLAGS=-buildvcs=false would hide what a fresh machine hits).
//
// HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_DATA_HOME and XDG_STATE_HOME
// point into one temporary folder, removed afterwards, and GOENV at a
// file there that does not exist. The settings in goSettingsKept are
// set explicitly from the real `go env` first, so the build and module
// caches keep working; gopls keeps its cache too (GOPLSCACHE).
// GOTOOLCHAIN is local unless the caller set it: a test runs the Go it
// was started with and never downloads another. Processes the tests
// start inherit all of it.
//
// A test binary that a test started again (as a helper process) finds
// isolatedEnv set and keeps its parent's folders, so both see the same
// configuration.
//
// It must be called from TestMain before anything else reads the
// environment; it is not safe for concurrent use.
func RunIsolated(m *testing.M) int {
	if dir := os.Getenv(isolatedEnv); dir != "" {
		if _, err := os.Stat(dir); err == nil {
			return m.Run()
		}
	}
	dir, err := isolateUserDirs()
	if err != nil {
		fmt.Fprintf(os.Stderr, "testfix: isolate the user folders: %v\n", err)
		return 2
	}
	defer os.RemoveAll(dir)
	return m.Run()
}

// isolatedEnv names the temporary folder that holds a test binary's user
// folders, for the processes it starts.
const isolatedEnv = "TRESTLE_TEST_USER_DIRS"

// isolateUserDirs does RunIsolated's work and returns the temporary
// folder that holds the new user folders.
func isolateUserDirs() (string, error) {
	kept, err := realGoSettings()
	if err != nil {
		return "", err
	}
	if os.Getenv("GOPLSCACHE") == "" {
		if cache, err := os.UserCacheDir(); err == nil {
			kept["GOPLSCACHE"] = cache
		}
	}
	if os.Getenv("GOTOOLCHAIN") == "" {
		kept["GOTOOLCHAIN"] = "local"
	}
	dir, err := os.MkdirTemp("", "trestle-test-home-")
	if err != nil {
		return "", err
	}
	for name, sub := range map[string]string{
		"HOME": "home", "XDG_CONFIG_HOME": "config", "XDG_CACHE_HOME": "cache",
		"XDG_DATA_HOME": "data", "XDG_STATE_HOME": "state",
	} {
		kept[name] = filepath.Join(dir, sub)
		if err := os.MkdirAll(kept[name], 0o700); err != nil {
			os.RemoveAll(dir)
			return "", err
		}
	}
	kept["GOENV"] = filepath.Join(dir, "config", "go", "env")
	kept[isolatedEnv] = dir
	for k, v := range kept {
		if err := os.Setenv(k, v); err != nil {
			os.RemoveAll(dir)
			return "", err
		}
	}
	return dir, nil
}

// realGoSettings are the values of goSettingsKept that the go command
// uses now (environment, then the Go env file, then its defaults). With
// no go on PATH it returns none: the tests that need it say so.
func realGoSettings() (map[string]string, error) {
	kept := map[string]string{}
	if _, err := exec.LookPath("go"); err != nil {
		return kept, nil
	}
	out, err := exec.Command("go", append([]string{"env", "-json"}, goSettingsKept...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	if err := json.Unmarshal(out, &kept); err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	for k, v := range kept {
		if v == "" {
			delete(kept, k)
		}
	}
	return kept, nil
}
