package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trestle/registry"
	"trestle/ui"
)

// TestOpenWindowOfAnOpenProject: Open Folder or Open Recent on a folder
// that a live window has open (its registry entry, here this process's)
// starts no second window and names the one that has it, and why it did
// not come to the front (its port answers nothing); through a symlink too.
func TestOpenWindowOfAnOpenProject(t *testing.T) {
	reg := registry.New(t.TempDir())
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	if err := reg.Write(registry.Entry{PID: os.Getpid(), Port: 1, Dir: dir, Token: strings.Repeat("ab", 32), Started: time.Now()}); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, link} {
		err := openWindowFor(reg)(d)
		if !errors.Is(err, ui.ErrProjectOpen) || !strings.Contains(err.Error(), "window "+fmt.Sprint(os.Getpid())) {
			t.Fatalf("open %s: %v, want it named as open in this process's window", d, err)
		}
		if !strings.Contains(err.Error(), "did not come to the front") { // nothing listens on port 1
			t.Fatalf("open %s: %v, want why the window did not come to the front", d, err)
		}
	}
}
