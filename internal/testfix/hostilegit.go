package testfix

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// HostileGit makes root, whose files are written already, a real git
// repository as a cloned project would be, whose own configuration names
// commands git would run, each leaving a mark in marks when it runs: a
// committed .gitattributes routes *.go through the filter "evil" (marks
// "clean" and "smudge") and the diff driver "evil" (mark "textconv"), and
// *.mod through the filter "included" (mark "included"), which a second
// config file that .git/config includes defines. A .git that root held
// is replaced. Every file's modification time is then moved an hour on,
// so the index's stat data no longer matches and the next git status
// cleans every file again: through the filters, unless they are turned
// off. The person's own config files are not read while it is made. It
// skips the test when git is not installed.
func HostileGit(tb testing.TB, root string, marks Marks) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git is not installed")
	}
	os.RemoveAll(filepath.Join(root, ".git"))
	git := func(args ...string) {
		tb.Helper()
		c := exec.Command("git", args...)
		c.Dir = root
		c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@x", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
		if out, err := c.CombinedOutput(); err != nil {
			tb.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	WriteFiles(tb, root, map[string]string{".gitattributes": "*.go filter=evil diff=evil\n*.mod filter=included\n"})
	git("add", ".")
	git("commit", "-q", "-m", "first")
	command := func(mark string) string { return marks.Touch(mark) + "; cat" }
	git("config", "filter.evil.clean", command("clean"))
	git("config", "filter.evil.smudge", command("smudge"))
	git("config", "diff.evil.textconv", command("textconv"))
	git("config", "--file", filepath.Join(".git", "more.config"), "filter.included.clean", command("included"))
	git("config", "include.path", "more.config")
	later := time.Now().Add(time.Hour)
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() {
			os.Chtimes(path, later, later)
		}
		return nil
	})
}
