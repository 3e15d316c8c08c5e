package gitstatus

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadOnARealRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if st, ok, err := Read(context.Background(), dir, false); ok || err != nil {
		t.Fatalf("not a repository: %+v %v %v", st, ok, err)
	}
	run("init", "-q", "-b", "work")
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644)
	run("add", "a.go")
	run("commit", "-q", "-m", "first")
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a // changed\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "new file.txt"), []byte("x"), 0o644)
	st, ok, err := Read(context.Background(), dir, false)
	if !ok || err != nil {
		t.Fatalf("Read: %v %v", ok, err)
	}
	got := strings.Join(st.Changed, "|")
	if st.Branch != "work" || len(st.Head) != 40 || got != " M a.go|?? new file.txt" {
		t.Fatalf("status %+v (%q)", st, got)
	}
}
