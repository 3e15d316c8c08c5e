package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// GoplsVersion is the gopls that Trestle installs and is tested with.
const GoplsVersion = "v0.23.0"

// ErrNotInstalled is wrapped by Find's error when no gopls was found.
var ErrNotInstalled = errors.New("gopls is not installed")

func exeName() string {
	if runtime.GOOS == "windows" {
		return "gopls.exe"
	}
	return "gopls"
}

// Find looks for gopls on PATH, then in $(go env GOPATH)/bin, then in
// userBin (Trestle's per-user folder, "" to skip). Its error wraps
// ErrNotInstalled and says how to install it. Safe for concurrent use.
func Find(ctx context.Context, userBin string) (string, error) {
	if p, err := exec.LookPath("gopls"); err == nil {
		return p, nil
	}
	var tried []string
	if gp := goEnv(ctx, "GOPATH"); gp != "" {
		for _, dir := range filepath.SplitList(gp) {
			p := filepath.Join(dir, "bin", exeName())
			tried = append(tried, p)
			if isExec(p) {
				return p, nil
			}
		}
	}
	if userBin != "" {
		p := filepath.Join(userBin, exeName())
		tried = append(tried, p)
		if isExec(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w (not on PATH, nor at %s); install it with: go install golang.org/x/tools/gopls@%s",
		ErrNotInstalled, strings.Join(tried, ", "), GoplsVersion)
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && (runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0)
}

// goEnv is one `go env` value, "" when go is missing or fails.
func goEnv(ctx context.Context, name string) string {
	out, err := exec.CommandContext(ctx, "go", "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// Install builds the pinned gopls into userBin with `go install`, writing
// the go command's output to progress as it comes. It needs the go command
// and the module proxy; ctx cancels it.
func Install(ctx context.Context, userBin string, progress io.Writer) error {
	if err := os.MkdirAll(userBin, 0o755); err != nil {
		return fmt.Errorf("install gopls: %w", err)
	}
	cmd := exec.CommandContext(ctx, "go", "install", "golang.org/x/tools/gopls@"+GoplsVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+userBin, "GOFLAGS=")
	cmd.Stdout, cmd.Stderr = progress, progress
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("install gopls %s into %s: %w", GoplsVersion, userBin, err)
	}
	return nil
}
