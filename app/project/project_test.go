package project

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"trestle/app/errdefs"
	"trestle/internal/testfix"
)

func TestOpenProjectReadsModuleAndResolvesSymlinks(t *testing.T) {
	real := t.TempDir()
	testfix.WriteFiles(t, real, map[string]string{"go.mod": "module example.com/x\n\ngo 1.22\n"})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	p, err := Open(link)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(real)
	if p.Root != want || p.Module != "example.com/x" {
		t.Fatalf("got %+v, want root %s", p, want)
	}
	if _, err := Open(filepath.Join(real, "go.mod")); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("file as project: %v", err)
	}
	if _, err := Open(filepath.Join(real, "nope")); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("missing project: %v", err)
	}
}

func TestResolveConfinesToRoot(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	testfix.WriteFiles(t, dir, map[string]string{"a/b.go": "package a\n"})
	testfix.WriteFiles(t, outside, map[string]string{"s.txt": "secret"})
	os.Symlink(outside, filepath.Join(dir, "out"))
	os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "in"))
	p, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       string // relative result, or "" when refused
		err        error
	}{
		{"plain", "a/b.go", "a/b.go", nil},
		{"root", "", ".", nil},
		{"cleaned inside", "a/../a/b.go", "a/b.go", nil},
		{"absolute inside", filepath.Join(p.Root, "a", "b.go"), "a/b.go", nil},
		{"not yet existing", "a/new/c.go", "a/new/c.go", nil},
		{"symlink inside", "in/b.go", "a/b.go", nil},
		{"dot dot", "../x", "", errdefs.ErrOutside},
		{"deep dot dot", "a/../../x", "", errdefs.ErrOutside},
		{"absolute outside", filepath.Join(outside, "s.txt"), "", errdefs.ErrOutside},
		{"symlink out", "out/s.txt", "", errdefs.ErrOutside},
		{"new file under symlink out", "out/new.txt", "", errdefs.ErrOutside},
		{"nul byte", "a\x00b", "", errdefs.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp, err := p.Resolve(tt.path)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Resolve(%q) = %s, %v; want %v", tt.path, cp.Abs(), err, tt.err)
				}
				return
			}
			if err != nil || cp.Rel() != tt.want || p.Rel(cp.Abs()) != tt.want {
				t.Fatalf("Resolve(%q) = %s, %v; want %s", tt.path, cp.Abs(), err, tt.want)
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	testfix.WriteFiles(t, dir, map[string]string{"t.txt": "a\nb\n", "bin.dat": "ab\x00cd"})
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, make([]byte, MaxReadBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _ := Open(dir)
	ft, err := p.ReadFile("t.txt")
	if err != nil || ft.Text != "a\nb\n" || ft.Lines != 2 || len(ft.SHA256) != 64 || ft.Path != "t.txt" {
		t.Fatalf("got %+v, %v", ft, err)
	}
	for name, want := range map[string]error{"bin.dat": errdefs.ErrInvalid, "big.txt": errdefs.ErrTooLarge, "none": errdefs.ErrNotFound, ".": errdefs.ErrInvalid} {
		if _, err := p.ReadFile(name); !errors.Is(err, want) {
			t.Errorf("ReadFile(%s) = %v, want %v", name, err, want)
		}
	}
}

func TestSliceLines(t *testing.T) {
	text := "1\n2\n3\n"
	tests := []struct {
		name       string
		start, end int
		want       string
		wantErr    bool
	}{
		{"all", 0, 0, "1\n2\n3\n", false},
		{"middle", 2, 2, "2\n", false},
		{"clamped end", 2, 10, "2\n3\n", false},
		{"start past end", 4, 0, "", true},
		{"end before start", 3, 2, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SliceLines(text, tt.start, tt.end)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("got %q, %v", got, err)
			}
		})
	}
	if n := CountLines("no newline"); n != 1 {
		t.Fatalf("CountLines = %d", n)
	}
}

func TestListFilesSkipsGitAndCapsResults(t *testing.T) {
	dir := t.TempDir()
	testfix.WriteFiles(t, dir, map[string]string{"a.go": "", "b/c.go": "", "b/d.txt": "", ".git/HEAD": "", "vendor/.git/x": ""})
	p, _ := Open(dir)
	ctx := context.Background()
	got, trunc, err := p.ListFiles(ctx, "", "", 0)
	if err != nil || strings.Join(got, ",") != "a.go,b/c.go,b/d.txt" || trunc {
		t.Fatalf("got %v %v %v", got, trunc, err)
	}
	got, trunc, _ = p.ListFiles(ctx, "", "", 2)
	if len(got) != 2 || !trunc {
		t.Fatalf("limit: %v %v", got, trunc)
	}
	if _, _, err := p.ListFiles(ctx, "", "[", 0); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("bad glob: %v", err)
	}
}

func TestReadFileRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skip("no FIFOs here: ", err)
	}
	p, _ := Open(dir)
	done := make(chan error, 1)
	go func() { _, err := p.ReadFile("pipe"); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, errdefs.ErrInvalid) {
			t.Fatalf("ReadFile(pipe) = %v, want ErrInvalid", err)
		}
	case <-time.After(30 * time.Second): // generous: a loaded machine
		t.Fatal("ReadFile blocked on a FIFO")
	}
}
