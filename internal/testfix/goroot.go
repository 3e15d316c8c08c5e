package testfix

import (
	"os/exec"
	"strings"
	"sync"
	"testing"
)

var goroot = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	return strings.TrimSpace(string(out)), err
})

// GOROOT is the root of the Go toolchain the go command on PATH uses (go
// env GOROOT), whose standard library sources tests read as real code.
// runtime.GOROOT is deprecated: it names where the test binary was built.
func GOROOT(tb testing.TB) string {
	tb.Helper()
	root, err := goroot()
	if err != nil || root == "" {
		tb.Fatalf("go env GOROOT: %v; put the go command on PATH", err)
	}
	return root
}
