package ui

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"trestle/app"
)

// newProject writes files (slash paths → content) under a temp folder and
// opens it as a project.
func newProject(t *testing.T, files map[string]string) *app.Project {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		abs := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := app.OpenProject(root)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestListDir(t *testing.T) {
	p := newProject(t, map[string]string{
		"main.go":         "package main\n",
		"README.md":       "",
		"b.txt":           "",
		"Zeta/z.go":       "",
		"alpha/a.go":      "",
		"internal/x.go":   "",
		".git/HEAD":       "",
		".github/ci.yml":  "",
		"alpha/deep/d.go": "",
	})
	outside := t.TempDir()
	symlink(t, outside, filepath.Join(p.Root, "out"))
	symlink(t, filepath.Join(p.Root, "alpha"), filepath.Join(p.Root, "in"))
	symlink(t, filepath.Join(p.Root, "main.go"), filepath.Join(p.Root, "link.go"))

	tests := []struct {
		name string
		rel  string
		want []entry
	}{
		{name: "root", rel: "", want: []entry{
			{".github", true}, {"alpha", true}, {"in", true}, {"internal", true}, {"Zeta", true},
			{"b.txt", false}, {"link.go", false}, {"main.go", false}, {"out", false}, {"README.md", false},
		}},
		{name: "subfolder", rel: "alpha", want: []entry{{"deep", true}, {"a.go", false}}},
		{name: "through an inside symlink", rel: "in", want: []entry{{"deep", true}, {"a.go", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := listDir(p, tt.rel)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("listDir(%q) =\n%v\nwant\n%v", tt.rel, got, tt.want)
			}
		})
	}
	if _, err := listDir(p, "out"); err == nil {
		t.Error("listDir of a symlink out of the project succeeded")
	}
}

func TestFileTreeReadsFolderOnce(t *testing.T) {
	p := newProject(t, map[string]string{"a/x.go": "", "b.go": ""})
	ft := newFileTree(p, func(err error) { t.Errorf("failed: %v", err) })
	if got := ft.childUIDs(""); !slices.Equal(got, []string{"a", "b.go"}) {
		t.Fatalf("root = %q", got)
	}
	if !ft.isBranch("a") || ft.isBranch("b.go") {
		t.Error("isBranch wrong for a or b.go")
	}
	if got := ft.childUIDs("a"); !slices.Equal(got, []string{"a/x.go"}) {
		t.Fatalf("a = %q", got)
	}
	if err := os.WriteFile(filepath.Join(p.Root, "c.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := ft.childUIDs(""); len(got) != 2 {
		t.Errorf("root read again: %q", got)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}
