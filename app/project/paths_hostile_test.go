package project

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/errdefs"
)

// hostileProject is a project beside a folder outside it that holds a
// secret, with symlinks from the project to that file and that folder (and
// a relative one up out of the project).
func hostileProject(t *testing.T) (p *Project, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside := filepath.Join(base, "proj"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "a", "b"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "a", "b", "in.go"), []byte("package b\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o644)
	os.WriteFile(filepath.Join(base, "sibling.txt"), []byte("secret\n"), 0o644)
	os.WriteFile(filepath.Join(base, "projx"), []byte("secret\n"), 0o644) // shares the root's name as a prefix
	for link, target := range map[string]string{
		"filelink": filepath.Join(outside, "secret.txt"), "dirlink": outside, "a/up": "../..",
		"a/b/rel": "../../../outside", "loop1": "loop2", "loop2": "loop1", "a/inside": "b",
	} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return p, outside
}

// TestResolveRefusesEveryEscape tries ".." in every position, absolute
// paths, symlinks to files and folders outside, names with newlines and
// NULs and very long names: none resolves outside the root.
func TestResolveRefusesEveryEscape(t *testing.T) {
	p, outside := hostileProject(t)
	tests := []struct {
		name string
		path string
		want error // ErrOutside, ErrInvalid, or nil for any other error
	}{
		{"dot dot", "..", errdefs.ErrOutside},
		{"dot dot slash", "../", errdefs.ErrOutside},
		{"leading", "../x", errdefs.ErrOutside},
		{"leading to a sibling", "../sibling.txt", errdefs.ErrOutside},
		{"root name prefix", "../projx", errdefs.ErrOutside},
		{"middle", "a/../../x", errdefs.ErrOutside},
		{"deep middle", "a/b/../../../sibling.txt", errdefs.ErrOutside},
		{"dot first", "./../x", errdefs.ErrOutside},
		{"trailing", "a/b/../../..", errdefs.ErrOutside},
		{"trailing slash", "a/../../", errdefs.ErrOutside},
		{"doubled slashes", "a//..//..//x", errdefs.ErrOutside},
		{"many", strings.Repeat("../", 40) + "etc/passwd", errdefs.ErrOutside},
		{"absolute outside", filepath.Join(outside, "secret.txt"), errdefs.ErrOutside},
		{"absolute root of fs", "/", errdefs.ErrOutside},
		{"absolute etc", "/etc/passwd", errdefs.ErrOutside},
		{"absolute through the root", filepath.Join(p.Root, "..", "sibling.txt"), errdefs.ErrOutside},
		{"absolute sibling with root as prefix", p.Root + "x", errdefs.ErrOutside},
		{"symlink to a file outside", "filelink", errdefs.ErrOutside},
		{"symlink to a folder outside", "dirlink", errdefs.ErrOutside},
		{"through a symlinked folder", "dirlink/secret.txt", errdefs.ErrOutside},
		{"new file through a symlinked folder", "dirlink/new.go", errdefs.ErrOutside},
		{"new folders through a symlinked folder", "dirlink/x/y/z.go", errdefs.ErrOutside},
		{"relative symlink up", "a/up", errdefs.ErrOutside},
		{"through a relative symlink up", "a/up/sibling.txt", errdefs.ErrOutside},
		{"relative symlink out", "a/b/rel/secret.txt", errdefs.ErrOutside},
		{"absolute path through a symlink", filepath.Join(p.Root, "dirlink", "secret.txt"), errdefs.ErrOutside},
		{"NUL", "a\x00b", errdefs.ErrInvalid},
		{"NUL then dot dot", "in.go\x00/../../x", errdefs.ErrInvalid},
		{"only NUL", "\x00", errdefs.ErrInvalid},
		{"symlink loop", "loop1", nil},
		{"over 255 bytes, then dot dot", strings.Repeat("n", 300) + "/../../x", errdefs.ErrOutside},
		{"4096+ bytes, then dot dot", strings.Repeat("d/", 2100) + strings.Repeat("../", 2101) + "x", errdefs.ErrOutside},
		{"over 255 bytes through a symlink", "dirlink/" + strings.Repeat("n", 300), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp, err := p.Resolve(tt.path)
			if err == nil {
				t.Fatalf("%.80q resolved to %s", tt.path, cp.Abs())
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("%.80q: %v, want %v", tt.path, err, tt.want)
			}
		})
	}
}

// TestResolveLongNames: a path over PATH_MAX or with a component over
// NAME_MAX is refused or resolves inside the root, never outside.
func TestResolveLongNames(t *testing.T) {
	p, _ := hostileProject(t)
	long := strings.Repeat("n", 256)
	for _, name := range []string{strings.Repeat("d/", 2100) + "x", "a/" + long, long, "a/b/" + long + "/x",
		"a/b/in.go/" + long, strings.Repeat("a/b/../", 700) + "a/b/in.go", strings.Repeat("x", 5000)} {
		t.Run(name[:min(len(name), 40)], func(t *testing.T) {
			cp, err := p.Resolve(name)
			if err == nil && !within(p.Root, cp.Abs()) {
				t.Fatalf("resolved outside: %s", cp.Abs())
			}
			if _, err := p.ReadFile(name); err == nil {
				t.Fatal("read a file by a name that names none")
			}
		})
	}
}

// TestResolveKeepsOddNamesInside: names that only look hostile (newlines,
// "..." components, ".." inside a name, escapes spelled out) resolve inside
// the root, to themselves.
func TestResolveKeepsOddNamesInside(t *testing.T) {
	p, _ := hostileProject(t)
	tests := []struct{ path, want string }{
		{"name\nwith newline", "name\nwith newline"},
		{"\n../x", "\n../x"},
		{"a/..", "."},
		{"a/../a/b/in.go", "a/b/in.go"},
		{"...", "..."},
		{"..x", "..x"},
		{"x..", "x.."},
		{`..\x`, `..\x`},
		{"%2e%2e/x", "%2e%2e/x"},
		{"~/x", "~/x"},
		{"a/inside/in.go", "a/b/in.go"},
		{"dirlink/../a", "a"}, // cleaned as text first, so it never passes through the link
		{strings.Repeat("n", 255), strings.Repeat("n", 255)},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			cp, err := p.Resolve(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if got := cp.Rel(); got != tt.want || p.Rel(cp.Abs()) != tt.want {
				t.Fatalf("%q resolved to %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}

// TestReadAndListNeverEscape reads and lists through the hostile paths:
// nothing outside is returned.
func TestReadAndListNeverEscape(t *testing.T) {
	p, outside := hostileProject(t)
	paths := []string{"../sibling.txt", "a/../../sibling.txt", "filelink", "dirlink", "dirlink/secret.txt",
		"a/up", "a/up/sibling.txt", "a/b/rel", "a/b/rel/secret.txt", outside, filepath.Join(outside, "secret.txt")}
	for _, name := range paths {
		t.Run(name, func(t *testing.T) {
			if ft, err := p.ReadFile(name); !errors.Is(err, errdefs.ErrOutside) {
				t.Fatalf("ReadFile(%q): %q, %v", name, ft.Text, err)
			}
			if files, _, err := p.ListFiles(context.Background(), name, "", 0); !errors.Is(err, errdefs.ErrOutside) {
				t.Fatalf("ListFiles(%q): %v, %v", name, files, err)
			}
		})
	}
	files, _, err := p.ListFiles(context.Background(), "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.Contains(f, "secret") || strings.Contains(f, "sibling") {
			t.Fatalf("ListFiles walked out of the project: %v", files)
		}
	}
}
