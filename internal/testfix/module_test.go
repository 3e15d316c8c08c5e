package testfix

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fatalRecorder is a testing.TB whose Fatalf records the message and
// returns, so a test can see what a helper would have failed with.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (r *fatalRecorder) Fatalf(format string, args ...any) { r.msg = fmt.Sprintf(format, args...) }

// TestModuleDirDownloadsWhatTheCacheLacks: github.com/dlclark/regexp2 is
// in go.sum only through another module's tests, so nothing downloads
// it; moduleDir does, and returns its folder (it once returned "" with no
// error).
// An empty module cache of its own stands for a fresh machine's (it
// needs the module proxy, as a fresh machine does).
func TestModuleDirDownloadsWhatTheCacheLacks(t *testing.T) {
	sumBefore, err := os.ReadFile("../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	t.Setenv("GOMODCACHE", cache)
	t.Setenv("GOFLAGS", "-modcacherw") // so that TempDir can remove it
	dir := moduleDir(t, "github.com/dlclark/regexp2")
	if _, err := os.Stat(filepath.Join(dir, "syntax", "parser.go")); err != nil || !strings.HasPrefix(dir, cache) {
		t.Fatalf("moduleDir = %q: %v; want it downloaded under %s", dir, err, cache)
	}
	// The download leaves the checkout as it was: a go.sum with regexp2's
	// lines made the next make test's `go mod tidy -diff` fail.
	if sumAfter, err := os.ReadFile("../../go.sum"); err != nil || string(sumAfter) != string(sumBefore) {
		os.WriteFile("../../go.sum", sumBefore, 0o644)
		t.Fatalf("moduleDir changed this repository's go.sum (%v); it must download without writing it", err)
	}
}

// TestModuleDirFailsLoudly: a module this repository does not require
// fails the test with what to do, never an empty folder and no error.
func TestModuleDirFailsLoudly(t *testing.T) {
	rec := &fatalRecorder{TB: t}
	dir := moduleDir(rec, "example.com/not/required")
	if rec.msg == "" || !strings.Contains(rec.msg, "go mod download example.com/not/required") {
		t.Fatalf("moduleDir = %q, failure %q: want a failure that says what to run", dir, rec.msg)
	}
	t.Log(rec.msg)
}
