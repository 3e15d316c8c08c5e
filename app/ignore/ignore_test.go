package ignore

import (
	"os"
	"path/filepath"
	"testing"

	"trestle/app/watch"
	"trestle/internal/testfix"
)

func TestIgnored(t *testing.T) {
	root := testfix.Project(t, map[string]string{
		".gitignore": "# build output\n*.log\n!keep.log\nbin/\n/top.txt\nvendor/\n!vendor/keep.go\n" +
			"docs/**/*.pdf\nspaced.txt   \r\n",
		"sub/.gitignore":      "local.txt\n/anchored.txt\n!root.tmp\n",
		".git/info/exclude":   "secret.env\n",
		"deep/a/b/.gitignore": "*.gen.go\n",
		"crlf/.gitignore":     "x.txt\r\n",
		"notdir/bin":          "",
		"sub/nested/.gitkeep": "",
		"root.tmp":            "",
		"vendor/keep.go":      "",
	})
	tests := []struct {
		name  string
		rel   string
		isDir bool
		want  bool
	}{
		{name: "root", rel: "", isDir: true, want: false},
		{name: "dot", rel: ".", isDir: true, want: false},
		{name: ".git folder", rel: ".git", isDir: true, want: true},
		{name: "inside .git", rel: ".git/HEAD", want: true},
		{name: "nested .git", rel: "sub/.git/config", want: true},
		{name: "plain file", rel: "main.go", want: false},
		{name: "glob anywhere", rel: "a/b/c.log", want: true},
		{name: "negation", rel: "keep.log", want: false},
		{name: "negation nested", rel: "x/keep.log", want: false},
		{name: "dir-only pattern on a folder", rel: "bin", isDir: true, want: true},
		{name: "dir-only pattern on a file", rel: "notdir/bin", want: false},
		{name: "below a dir-only folder", rel: "tools/bin/run", want: true},
		{name: "anchored at root", rel: "top.txt", want: true},
		{name: "anchored not below", rel: "sub/top.txt", want: false},
		{name: "negation cannot undo an ignored parent", rel: "vendor/keep.go", want: true},
		{name: "double star", rel: "docs/a/b/x.pdf", want: true},
		{name: "double star zero dirs", rel: "docs/x.pdf", want: true},
		{name: "double star other ext", rel: "docs/a/x.md", want: false},
		{name: "trailing spaces trimmed", rel: "spaced.txt", want: true},
		{name: "nested gitignore", rel: "sub/local.txt", want: true},
		{name: "nested gitignore deeper", rel: "sub/x/local.txt", want: true},
		{name: "nested gitignore not outside", rel: "local.txt", want: false},
		{name: "nested anchored", rel: "sub/anchored.txt", want: true},
		{name: "nested anchored deeper", rel: "sub/x/anchored.txt", want: false},
		{name: "nested negation of root pattern", rel: "sub/keep.log", want: false},
		{name: "deep nested", rel: "deep/a/b/c/x.gen.go", want: true},
		{name: "deep nested not above", rel: "deep/a/x.gen.go", want: false},
		{name: "info exclude", rel: "secret.env", want: true},
		{name: "crlf", rel: "crlf/x.txt", want: true},
		{name: "unclean path", rel: "./sub//local.txt", want: true},
	}
	m := New(root)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := m.Ignored(tt.rel, tt.isDir); got != tt.want {
				t.Errorf("Ignored(%q, %v) = %v, want %v", tt.rel, tt.isDir, got, tt.want)
			}
		})
	}
}

func TestForget(t *testing.T) {
	root := testfix.Project(t, map[string]string{"sub/.gitignore": "a.txt\n"})
	m := New(root)
	if !m.Ignored("sub/a.txt", false) || m.Ignored("sub/b.txt", false) {
		t.Fatal("initial patterns not applied")
	}
	if err := os.WriteFile(filepath.Join(root, "sub", ".gitignore"), []byte("b.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !m.Ignored("sub/a.txt", false) {
		t.Error("patterns read again before Forget")
	}
	m.Forget("sub")
	if m.Ignored("sub/a.txt", false) || !m.Ignored("sub/b.txt", false) {
		t.Error("changed .gitignore not read after Forget")
	}
}

func TestNoGitignore(t *testing.T) {
	m := New(t.TempDir())
	if m.Ignored("anything/at/all.go", false) {
		t.Error("ignored without any ignore file")
	}
}

// TestSawForgetsChangedIgnoreFiles: a changed .gitignore reported by the
// watcher reaches the folders below it (whose cached patterns include
// their parents'), and a lost-events batch rereads everything.
func TestSawForgetsChangedIgnoreFiles(t *testing.T) {
	root := testfix.Project(t, map[string]string{".gitignore": "*.tmp\n", "a/b/.gitignore": "x.txt\n"})
	m := New(root)
	if !m.Ignored("a/b/c/y.tmp", false) || !m.Ignored("a/b/x.txt", false) || m.Ignored("a/b/z.log", false) {
		t.Fatal("initial patterns not applied")
	}
	write := func(rel, text string) {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitignore", "*.log\n")
	m.Saw([]watch.Event{{Path: ".gitignore", Op: watch.Changed}})
	if m.Ignored("a/b/c/y.tmp", false) || !m.Ignored("a/b/z.log", false) || !m.Ignored("a/b/x.txt", false) {
		t.Error("a nested folder kept the root's old patterns after Saw")
	}
	write("a/b/.gitignore", "w.txt\n")
	m.Saw([]watch.Event{{Path: "a/other.go", Op: watch.Changed}})
	if !m.Ignored("a/b/x.txt", false) {
		t.Error("an unrelated event made the matcher read again")
	}
	m.Saw([]watch.Event{{Path: watch.All}})
	if m.Ignored("a/b/x.txt", false) || !m.Ignored("a/b/w.txt", false) {
		t.Error("a lost-events batch did not read the ignore files again")
	}
}
