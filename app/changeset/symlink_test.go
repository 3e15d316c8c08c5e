package changeset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/errdefs"
)

// linkAt makes rel in p's root a symlink to target, failing the test if it cannot.
func linkAt(t *testing.T, root, rel, target string) string {
	t.Helper()
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.Symlink(target, abs); err != nil {
		t.Fatal(err)
	}
	return abs
}

// stillLinks fails unless abs is a symlink to target.
func stillLinks(t *testing.T, abs, target string) {
	t.Helper()
	info, err := os.Lstat(abs)
	if err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a symlink: %v %v", abs, info, err)
	}
	if got, _ := os.Readlink(abs); got != target {
		t.Fatalf("%s now links to %q, want %q", abs, got, target)
	}
}

// TestCreateOverASymlinkIsRefused is issue 20's "create over a dangling
// symlink": the proposal said only "create dangling", and the apply left
// a regular file with the symlink's mode 0777 where the symlink was. A
// create over any symlink is refused when proposed, saying what is there.
func TestCreateOverASymlinkIsRefused(t *testing.T) {
	for _, target := range []string{"nowhere.txt", "sub/nowhere.txt", "/nonexistent-trestle-target/x"} {
		t.Run(target, func(t *testing.T) {
			p := newProject(t, map[string]string{"a.go": "a\n"})
			m := newManager(t, p)
			abs := linkAt(t, p.Root, "dangling", target)
			_, err := m.Propose(diskReader(p), Proposal{Title: "t", Client: "agent", Changes: []Change{
				{Path: "dangling", Action: ActionCreate, Content: "x\n"}}})
			if !errors.Is(err, errdefs.ErrInvalid) || !strings.Contains(err.Error(), "symlink") || !strings.Contains(err.Error(), target) {
				t.Fatalf("create over a symlink to %s: %v", target, err)
			}
			stillLinks(t, abs, target)
		})
	}
}

// TestApplyAndRevertKeepASymlink: a symlink that appears where a
// proposal creates a file (after the proposal) makes the apply refuse and
// write nothing; the symlink stays. Without it the file is created with
// the mode of a new file, and the revert removes exactly that file.
func TestApplyAndRevertKeepASymlink(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "a\n"})
	m := newManager(t, p)
	cs, err := m.Propose(diskReader(p), Proposal{Title: "t", Client: "agent", Changes: []Change{
		{Path: "new.txt", Action: ActionCreate, Content: "new\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	abs := linkAt(t, p.Root, "new.txt", "nowhere.txt")
	if _, err := m.Apply(cs.ID, nil, diskReader(p), nil); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Fatalf("apply over a symlink that appeared since the proposal: %v", err)
	}
	stillLinks(t, abs, "nowhere.txt")
	if entries, _ := os.ReadDir(p.Root); len(entries) != 2 {
		t.Fatalf("the refused apply left files: %v", entries)
	}

	os.Remove(abs)
	if _, err := m.Apply(cs.ID, nil, diskReader(p), nil); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(abs); err != nil || !info.Mode().IsRegular() || info.Mode().Perm() != NewFileMode {
		t.Fatalf("the created file: %v %v", info.Mode(), err)
	}
	// The created file swapped for a symlink: the revert must not remove it.
	os.Remove(abs)
	linkAt(t, p.Root, "new.txt", "nowhere.txt")
	if _, err := m.Revert(cs.ID, diskReader(p), nil); err == nil {
		t.Fatal("the revert removed a symlink the apply never wrote")
	}
	stillLinks(t, abs, "nowhere.txt")
}

// TestWriteFilesRefusesASymlinkInPlace: the transaction itself (the last
// check, through the project's os.Root) never renames over, removes or
// takes the mode of a symlink, whatever the checks before it saw.
func TestWriteFilesRefusesASymlinkInPlace(t *testing.T) {
	for _, remove := range []bool{false, true} {
		p := newProject(t, map[string]string{"a.go": "a\n"})
		abs := linkAt(t, p.Root, "link", "a.go")
		w, done, err := txnWriter(nil, p.Root)
		if err != nil {
			t.Fatal(err)
		}
		_, err = writeFiles(w, p.Root, newTxnID(), []fileOp{{rel: "link", abs: abs, remove: remove, data: "x\n", mode: NewFileMode}})
		done()
		if err == nil || !strings.Contains(err.Error(), "symlink") {
			t.Fatalf("remove %v: writeFiles over a symlink: %v", remove, err)
		}
		stillLinks(t, abs, "a.go")
		if data, _ := os.ReadFile(filepath.Join(p.Root, "a.go")); string(data) != "a\n" {
			t.Fatalf("its target changed: %q", data)
		}
	}
}
