//go:build unix

package registry

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckPrivate refuses a registry folder or entry file that other users
// could read or write, naming it and the fix, and accepts a private one.
func TestCheckPrivate(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir, entry string) // dir holds entry (a 0600 entry for this pid)
		root    bool                                  // needs root (chown to another user)
		wantBad string                                // "" when private; else the path's base name
		wantFix string
	}{
		{"private", func(t *testing.T, dir, entry string) {}, false, "", ""},
		{"missing folder", func(t *testing.T, dir, entry string) { os.RemoveAll(dir) }, false, "", ""},
		{"empty folder", func(t *testing.T, dir, entry string) { os.Remove(entry) }, false, "", ""},
		{"entry 0400", func(t *testing.T, dir, entry string) { os.Chmod(entry, 0o400) }, false, "", ""},
		{"entry 0644", func(t *testing.T, dir, entry string) { os.Chmod(entry, 0o644) }, false, "entry", "chmod 600 "},
		{"entry 0640", func(t *testing.T, dir, entry string) { os.Chmod(entry, 0o640) }, false, "entry", "chmod 600 "},
		{"entry 0602", func(t *testing.T, dir, entry string) { os.Chmod(entry, 0o602) }, false, "entry", "chmod 600 "},
		{"folder 0755", func(t *testing.T, dir, entry string) { os.Chmod(dir, 0o755) }, false, "dir", "chmod 700 "},
		{"folder 0770", func(t *testing.T, dir, entry string) { os.Chmod(dir, 0o770) }, false, "dir", "chmod 700 "},
		{"folder 0701", func(t *testing.T, dir, entry string) { os.Chmod(dir, 0o701) }, false, "dir", "chmod 700 "},
		{"entry is a symlink", func(t *testing.T, dir, entry string) {
			other := filepath.Join(t.TempDir(), "x.json")
			os.WriteFile(other, []byte("{}"), 0o600)
			os.Symlink(other, filepath.Join(dir, "777.json"))
		}, false, "777.json", "rm -r "},
		{"entry of another user", func(t *testing.T, dir, entry string) {
			if err := os.Lchown(entry, 54321, 54321); err != nil {
				t.Skip(err)
			}
		}, true, "entry", "rm -r "},
		{"folder of another user", func(t *testing.T, dir, entry string) {
			if err := os.Lchown(dir, 54321, 54321); err != nil {
				t.Skip(err)
			}
		}, true, "dir", "rm -r "},
		{"other files are not entries", func(t *testing.T, dir, entry string) {
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
		}, false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.root && os.Geteuid() != 0 {
				t.Skip("needs root to give a file to another user")
			}
			dir := filepath.Join(t.TempDir(), "mcp")
			r := New(dir)
			if err := r.Write(sample(os.Getpid(), "/p")); err != nil {
				t.Fatal(err)
			}
			entry := r.path(os.Getpid())
			tt.setup(t, dir, entry)
			err := r.CheckPrivate()
			if tt.wantBad == "" {
				if err != nil {
					t.Fatalf("private registry refused: %v", err)
				}
				return
			}
			bad := map[string]string{"entry": entry, "dir": dir}[tt.wantBad]
			if bad == "" {
				bad = filepath.Join(dir, tt.wantBad)
			}
			var npe *NotPrivateError
			if !errors.As(err, &npe) || npe.Path != bad || !strings.Contains(err.Error(), "Fix it with: "+tt.wantFix+bad) {
				t.Fatalf("got %v, want a refusal of %s with %q", err, bad, tt.wantFix)
			}
		})
	}
}

// TestWriteMakesItPrivate: what Write leaves behind passes CheckPrivate,
// even over a folder that was too open.
func TestWriteMakesItPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mcp")
	os.MkdirAll(dir, 0o755)
	r := New(dir)
	if err := r.Write(sample(os.Getpid(), "/p")); err != nil {
		t.Fatal(err)
	}
	if err := r.CheckPrivate(); err != nil {
		t.Fatal(err)
	}
}
