//go:build unix

package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"trestle/registry"
)

// TestAttachRefusesRegistryNotPrivate runs --mcp-attach over a registry
// whose entry file or folder other users could read: it exits 1 naming the
// file and the chmod that fixes it, and attaches to nothing.
func TestAttachRefusesRegistryNotPrivate(t *testing.T) {
	tests := []struct {
		name    string
		file    os.FileMode
		dir     os.FileMode
		wantFix string // "" when the registry is private
	}{
		{"entry 0644", 0o644, 0o700, "chmod 600 {entry}"},
		{"folder 0755", 0o600, 0o755, "chmod 700 {dir}"},
		{"private", 0o600, 0o700, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			config := t.TempDir()
			dir := filepath.Join(config, "mcp")
			os.MkdirAll(dir, 0o700)
			entry := filepath.Join(dir, strconv.Itoa(os.Getpid())+".json") // a live pid whose port does not answer
			data, _ := json.Marshal(registry.Entry{PID: os.Getpid(), Port: 1, Dir: t.TempDir(),
				Token: strings.Repeat("ab", 32), Started: time.Now(), Version: "test"})
			os.WriteFile(entry, data, tt.file)
			os.Chmod(entry, tt.file)
			os.Chmod(dir, tt.dir)
			env := []string{"TRESTLE_CONFIG_DIR=" + config, "DISPLAY=", "LANG=en_US.UTF-8", "LC_ALL=", "LC_MESSAGES="}
			out, err := runTrestle(t, env, "--mcp-attach")
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("exit %v, output %q; want code 1", err, out)
			}
			if tt.wantFix == "" {
				if strings.Contains(out, "refusing") {
					t.Fatalf("a private registry was refused: %q", out)
				}
				return
			}
			fix := strings.NewReplacer("{entry}", entry, "{dir}", dir).Replace(tt.wantFix)
			if !strings.Contains(out, "trestle: refusing the Trestle registry") || !strings.Contains(out, "Fix it with: "+fix) {
				t.Fatalf("output %q, want a refusal with %q", out, fix)
			}
			if _, err := os.Stat(entry); err != nil {
				t.Fatalf("the refused entry was touched: %v", err)
			}
		})
	}
}
