package testfix

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFiles writes files (slash-separated paths relative to dir, and
// their contents) under dir, making the folders they need.
func WriteFiles(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// Project writes files into a new temporary folder, removed when the test
// ends, and returns the folder's path with symlinks resolved (a project's
// root is always its real path).
func Project(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir, err := filepath.EvalSymlinks(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	WriteFiles(tb, dir, files)
	return dir
}
