package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"trestle/internal/testfix"
)

// TestFollowBringsThePersonsChangesIntoTheCopy: the staging copy takes
// the person's edit, new file and deletion of files the agent left alone;
// keeps the agent's version of a file both changed (and names it); takes
// an applied change of the agent's as the project's; ignores what
// .gitignore ignores; and never writes through a symlink the agent
// planted in the copy.
func TestFollowBringsThePersonsChangesIntoTheCopy(t *testing.T) {
	dir := testfix.Project(t, map[string]string{
		"go.mod": "module p\n", "p.go": "package p\n", "q.go": "package p\n", "r.go": "package p\n",
		"s.go": "package p\n", "sub/x.go": "package sub\n", ".gitignore": "out/\n",
	})
	p, s := newStage(t, dir)
	outside := t.TempDir()
	// The agent: changes q.go and s.go, and swaps sub for a symlink out of the copy.
	testfix.WriteFiles(t, s.Dir, map[string]string{"q.go": "package p // agent\n", "s.go": "package p // applied\n"})
	if err := os.RemoveAll(filepath.Join(s.Dir, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(s.Dir, "sub")); err != nil {
		t.Fatal(err)
	}
	// The person: edits p.go and q.go, adds n.go and out/o.go, deletes r.go,
	// applies the agent's s.go, edits sub/x.go.
	testfix.WriteFiles(t, dir, map[string]string{"p.go": "package p // mine\n", "q.go": "package p // mine\n",
		"n.go": "package p // new\n", "out/o.go": "package out\n", "s.go": "package p // applied\n", "sub/x.go": "package sub // mine\n"})
	if err := os.Remove(filepath.Join(dir, "r.go")); err != nil {
		t.Fatal(err)
	}
	kept, err := s.Follow(context.Background(), p, []string{"p.go", "q.go", "n.go", "out/o.go", "r.go", "s.go", "sub"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"q.go", "sub/x.go"}; !slices.Equal(kept, want) {
		t.Errorf("kept %q, want %q", kept, want)
	}
	read := func(rel string) string {
		data, err := os.ReadFile(filepath.Join(s.Dir, rel))
		if err != nil {
			return "(" + err.Error() + ")"
		}
		return string(data)
	}
	for rel, want := range map[string]string{"p.go": "package p // mine\n", "q.go": "package p // agent\n", "n.go": "package p // new\n"} {
		if got := read(rel); got != want {
			t.Errorf("the copy's %s is %q, want %q", rel, got, want)
		}
	}
	for _, rel := range []string{"r.go", "out/o.go"} {
		if _, err := os.Lstat(filepath.Join(s.Dir, rel)); !os.IsNotExist(err) {
			t.Errorf("the copy has %s (%v)", rel, err)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("Follow wrote through the agent's symlink: %v", entries)
	}
	changes, err := s.Changes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range changes {
		paths = append(paths, c.Path)
	}
	if want := []string{"q.go", "sub/x.go"}; !slices.Equal(paths, want) {
		t.Errorf("the agent's changes are %q, want %q (the person's and the applied ones are not the agent's)", paths, want)
	}
}
