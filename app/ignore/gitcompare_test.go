package ignore

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trestle/internal/testfix"
)

// realTreeIgnores are ignore files written into a copy of a real module,
// with every kind of pattern gitignore(5) describes, some of them aimed at
// the module's own files.
var realTreeIgnores = map[string]string{
	".gitignore": "# comment\n*_test.go\n!bolt_*_test.go\n/cmd/\ninternal/**/*.go\n!internal/common/*.go\n" +
		"**/testdata\n*.[ch]\n*.m[!d]\n?ODE*\nLICENSE\\ \ndocs/**\nversion_*.go\n\\#hash.txt\n\\!bang.txt\n" +
		"trailing.txt   \n/scripts/*.sh\n",
	"internal/.gitignore":          "*.txt\n!keep.txt\nguts/\n",
	"internal/btesting/.gitignore": "/btesting.go\n",
	"errors/.gitignore":            "**/errors.go\n",
}

// realTreeExtras are files added beside the module's, for the patterns
// that aim at names the module lacks.
var realTreeExtras = []string{
	"#hash.txt", "!bang.txt", "hash.txt", "trailing.txt", "scripts/a.sh", "scripts/x/b.sh", "x.c", "x.h", "x.md", "x.mx",
	"docs/a/b.md", "docs.md", "internal/keep.txt", "internal/drop.txt", "internal/guts/g.go", "internal/sub/guts",
	"a/testdata/t.go", "testdata/u.go", "CODE_OF_CONDUCT.md", "sub/cmd/keep.go", "cmd/x/y.go",
}

// TestMatchesGitOnARealTree compares Matcher with git itself on a copy of
// a real module (bbolt) with ignore files of every kind: the files git
// lists as ignored must be exactly those Matcher ignores.
func TestMatchesGitOnARealTree(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	root := testfix.CopyModule(t, "go.etcd.io/bbolt")
	for rel, text := range realTreeIgnores {
		write(t, root, rel, text)
	}
	for _, rel := range realTreeExtras {
		write(t, root, rel, "x\n")
	}
	run := func(args ...string) string {
		cmd := exec.Command(git, args...)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return string(out)
	}
	run("init", "-q")
	write(t, root, ".git/info/exclude", "*.go.orig\nnode_modules/\n")
	write(t, root, "db.go.orig", "x\n")
	write(t, root, "web/node_modules/m.js", "x\n")
	var byGit []string
	for _, rel := range strings.Split(run("-c", "core.quotePath=off", "ls-files", "--others", "--ignored", "--exclude-standard", "-z"), "\x00") {
		if rel != "" {
			byGit = append(byGit, rel)
		}
	}
	var byUs []string
	m := New(root)
	total := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case err != nil:
			return err
		case d.IsDir() && rel == ".git":
			return filepath.SkipDir
		case d.IsDir():
			return nil
		}
		total++
		if m.Ignored(rel, false) {
			byUs = append(byUs, rel)
		}
		return nil
	})
	slices.Sort(byGit)
	slices.Sort(byUs)
	if len(byGit) < 20 || len(byGit) > total-20 {
		t.Fatalf("git ignores %d of %d files: the patterns should leave many on each side", len(byGit), total)
	}
	for _, rel := range byGit {
		if !slices.Contains(byUs, rel) {
			t.Errorf("git ignores %s, Matcher does not", rel)
		}
	}
	for _, rel := range byUs {
		if !slices.Contains(byGit, rel) {
			t.Errorf("Matcher ignores %s, git does not", rel)
		}
	}
	t.Logf("%d of %d files ignored, as git says", len(byGit), total)
}

func write(t *testing.T, root, rel, text string) {
	t.Helper()
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
