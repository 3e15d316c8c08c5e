package ignore_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"trestle/app/project"
)

// TestListFilesSkipsIgnored checks the one user of Matcher in package app:
// trestle_files lists what git would track.
func TestListFilesSkipsIgnored(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		".gitignore":     "*.log\nvendor/\n/bin\n",
		"main.go":        "",
		"debug.log":      "",
		"vendor/v.go":    "",
		"bin/tool":       "",
		"sub/bin/keep":   "",
		"sub/.gitignore": "gen.go\n",
		"sub/gen.go":     "",
		"sub/x.go":       "",
		".git/HEAD":      "",
	} {
		abs := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := project.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := p.ListFiles(context.Background(), "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".gitignore", "main.go", "sub/.gitignore", "sub/bin/keep", "sub/x.go"}
	if !slices.Equal(got, want) {
		t.Errorf("ListFiles = %q, want %q", got, want)
	}
}
