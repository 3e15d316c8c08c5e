package changeset

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHeldFolderSwappedForASymlinkRefusesWrites: a transaction's writer
// holds folder a open (it looked at a/file.go), then a is removed and
// replaced by a symlink to a twin folder outside the project. Every write
// there through the writer fails, and nothing outside changes: the held
// folder is the removed one, which takes no new files, and a name is never
// looked up through the symlink.
func TestHeldFolderSwappedForASymlinkRefusesWrites(t *testing.T) {
	files := map[string]string{"a/file.go": "package a\n"}
	p := newProject(t, files)
	outside := outsideTwin(t, files)
	before := treeOf(t, outside)
	w, done, err := txnWriter(nil, p.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	file := filepath.Join(p.Root, "a", "file.go")
	if _, err := w.Lstat(file); err != nil {
		t.Fatal(err)
	}
	if n := len(w.(OSWriter).dirs.open); holdFolders && n != 1 {
		t.Fatalf("the writer holds %d folders after looking at a/file.go, want a", n)
	}
	swapForSymlink(t, p, "a", filepath.Join(outside, "a"))
	dir := filepath.Join(p.Root, "a")
	if name, err := w.WriteTemp(dir, ".x-*", []byte("pwned\n"), 0o644); err == nil {
		t.Errorf("WriteTemp into the swapped folder wrote %s", name)
	}
	backup := filepath.Join(dir, ".file.go.backup")
	if err := w.Link(file, backup); err == nil {
		t.Error("Link in the swapped folder succeeded")
	}
	if err := w.Rename(file, backup); err == nil {
		t.Error("Rename in the swapped folder succeeded")
	}
	if err := w.Remove(file); err == nil {
		t.Error("Remove in the swapped folder succeeded")
	}
	if err := w.Mkdir(filepath.Join(dir, "sub"), 0o755); err == nil {
		t.Error("Mkdir in the swapped folder succeeded")
	}
	if after := treeOf(t, outside); !equalTrees(before, after) {
		t.Fatalf("outside changed: %v, was %v", after, before)
	}
	if entries, _ := os.ReadDir(filepath.Join(outside, "a")); len(entries) != 1 {
		t.Fatalf("outside a/ holds %d entries, want file.go alone", len(entries))
	}
}
