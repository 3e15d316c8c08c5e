package project

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/errdefs"
)

// TestResolverAgreesWithResolve resolves every kind of path (files and
// folders inside, new files in new and existing folders, escapes by "..",
// absolute paths and symlinks, a loop, NULs, git's metadata) through one
// Resolver, in an order that has it reuse the folders it saw, and through
// Resolve: each answer is the same Path or the same kind of error, and
// each call counts as one resolution.
func TestResolverAgreesWithResolve(t *testing.T) {
	p, outside := hostileProject(t)
	if err := os.MkdirAll(filepath.Join(p.Root, ".git", "objects"), 0o755); err != nil {
		t.Fatal(err)
	}
	paths := []string{
		"a/b/in.go", "a/b/in.go", "a/b/new.go", "a/new.go", "new.go", "a", "a/b", ".", "",
		"x/y/new.go", "a/b/x/new.go", "a/inside/in.go", "a/inside", "a/inside/new.go",
		"..", "../x", "a/../../x", "a/b/../../..", filepath.Join(outside, "secret.txt"), "/etc/passwd",
		filepath.Join(p.Root, "a", "b", "in.go"), filepath.Join(p.Root, "..", "sibling.txt"),
		"filelink", "dirlink", "dirlink/secret.txt", "dirlink/new.go", "dirlink/x/y/z.go",
		"a/up", "a/up/sibling.txt", "a/b/rel/secret.txt", "loop1", "loop1/x.go",
		"a\x00b", ".git/config", ".git/objects/x", ".GIT/HEAD", "a/b/in.go/x",
		strings.Repeat("n", 300) + "/../../x", "dirlink/" + strings.Repeat("n", 300),
	}
	r := p.NewResolver()
	for _, name := range paths {
		want, wantErr := p.Resolve(name)
		before := p.Resolutions()
		got, err := r.Resolve(name)
		if n := p.Resolutions() - before; n != 1 {
			t.Errorf("%.60q counted %d resolutions, want 1", name, n)
		}
		if (err == nil) != (wantErr == nil) || got != want {
			t.Errorf("%.60q: Resolver %+v, %v; Resolve %+v, %v", name, got, err, want, wantErr)
			continue
		}
		for _, kind := range []error{errdefs.ErrOutside, errdefs.ErrInvalid} {
			if errors.Is(err, kind) != errors.Is(wantErr, kind) {
				t.Errorf("%.60q: Resolver's error %v, Resolve's %v", name, err, wantErr)
			}
		}
	}
}

// TestResolverLooksAtEachFolderOnce: a Resolver over many files in a few
// folders lstats each folder once and each file once, where Resolve
// walks every component of every path.
func TestResolverLooksAtEachFolderOnce(t *testing.T) {
	root := t.TempDir()
	for i := range 20 {
		dir := filepath.Join(root, "pkg", string(rune('a'+i%4)))
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "f"+string(rune('a'+i))+".go"), []byte("package x\n"), 0o644)
	}
	p, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	r := p.NewResolver()
	for i := range 20 {
		name := "pkg/" + string(rune('a'+i%4)) + "/f" + string(rune('a'+i)) + ".go"
		if _, err := r.Resolve(name); err != nil {
			t.Fatal(err)
		}
	}
	if len(r.dirs) != 5 || r.rootOK != 1 {
		t.Fatalf("folders seen %v, root checked %d; want pkg and its 4 folders, root once", r.dirs, r.rootOK)
	}
}

// TestReadDoesNotFollowASymlinkSwappedIn: a file resolved, then swapped
// for a symlink to a secret outside, is refused rather than read through
// the link; a symlink that leads nowhere reads as no such file, as it did
// through os.Stat.
func TestReadDoesNotFollowASymlinkSwappedIn(t *testing.T) {
	p, outside := hostileProject(t)
	cp, err := p.Resolve("a/b/in.go")
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(cp.Abs())
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), cp.Abs()); err != nil {
		t.Fatal(err)
	}
	if ft, err := p.Read(cp); err == nil || strings.Contains(ft.Text, "secret") {
		t.Fatalf("read through a swapped-in symlink: %q, %v", ft.Text, err)
	}
	if err := os.Symlink(filepath.Join(p.Root, "nowhere"), filepath.Join(p.Root, "dangling")); err != nil {
		t.Fatal(err)
	}
	dangling, err := p.Resolve("dangling")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Read(dangling); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("read of a symlink that leads nowhere: %v, want ErrNotFound", err)
	}
}
