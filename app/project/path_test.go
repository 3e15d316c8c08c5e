package project

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"trestle/app/errdefs"
)

// TestPathCarriesBothForms: a Path made by Resolve carries the relative
// and the absolute form of one resolution, through a symlinked folder too.
func TestPathCarriesBothForms(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"pkg/a.go": "package pkg\n"})
	if err := os.Symlink("pkg", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	p, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pkg/a.go", "./pkg/a.go", "link/a.go", filepath.Join(p.Root, "pkg", "a.go")} {
		cp, err := p.Resolve(name)
		if err != nil {
			t.Fatal(err)
		}
		if cp.Rel() != "pkg/a.go" || cp.String() != "pkg/a.go" || cp.Abs() != filepath.Join(p.Root, "pkg", "a.go") || cp.IsZero() {
			t.Errorf("Resolve(%q) = rel %q abs %q", name, cp.Rel(), cp.Abs())
		}
	}
}

// TestReadTakesOnlyAResolvedPath: the zero Path (what code gets that
// skips Resolve) reads nothing, and a Path from Resolve, not ResolveShown,
// still cannot read git's metadata, by name or through a symlink.
func TestReadTakesOnlyAResolvedPath(t *testing.T) {
	p := gitProject(t)
	if _, err := p.Read(Path{}); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("Read of the zero Path: %v, want invalid", err)
	}
	for _, name := range []string{".git/config", ".GIT/config", "cfg.txt", "gitlink/config"} {
		cp, err := p.Resolve(name)
		if err != nil {
			t.Fatalf("Resolve(%q): %v", name, err)
		}
		if ft, err := p.Read(cp); !errors.Is(err, errdefs.ErrRefused) {
			t.Errorf("Read(Resolve(%q)) = %q, %v; want refused", name, ft.Text, err)
		}
		if err := cp.Shown(); !errors.Is(err, errdefs.ErrRefused) {
			t.Errorf("Resolve(%q).Shown() = %v, want refused", name, err)
		}
	}
	cp, err := p.Resolve("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if ft, err := p.Read(cp); err != nil || ft.Text != "package main\n" || cp.Shown() != nil {
		t.Fatalf("Read(main.go) = %q, %v", ft.Text, err)
	}
}

// TestReadFileResolvesOnce: ReadFile confines its name once and reads
// through that Path; Read resolves nothing.
func TestReadFileResolvesOnce(t *testing.T) {
	p := gitProject(t)
	before := p.Resolutions()
	if _, err := p.ReadFile("main.go"); err != nil {
		t.Fatal(err)
	}
	if n := p.Resolutions() - before; n != 1 {
		t.Fatalf("ReadFile resolved %d times, want once", n)
	}
	cp, _ := p.Resolve("main.go")
	before = p.Resolutions()
	if _, err := p.Read(cp); err != nil || p.Resolutions() != before {
		t.Fatalf("Read resolved %d times (err %v), want none", p.Resolutions()-before, err)
	}
}
