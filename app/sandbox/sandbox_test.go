package sandbox_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trestle/app/changeset"
	"trestle/app/project"
	"trestle/app/sandbox"
	"trestle/app/store"
	"trestle/app/workbench"
	"trestle/internal/testfix"
)

// TestStagedWritesBecomeOnePendingChangeSet: the staging copy holds the
// project's files as on disk (not .git, not what .gitignore ignores); what
// is changed there — an edit, a new file, a deletion — becomes one pending
// change set, while a binary file, a file too large and a symlink are
// left out, a file the agent's .gitignore now ignores is not taken for
// deleted, and the project is untouched.
func TestStagedWritesBecomeOnePendingChangeSet(t *testing.T) {
	dir := testfix.Project(t, map[string]string{
		"go.mod": "module p\n\ngo 1.22\n", "p.go": "package p\n", "old.go": "package p\n\nvar Old = 1\n",
		".gitignore": "build/\n", "build/out.txt": "ignored\n", ".git/HEAD": "ref: refs/heads/main\n", "kept.go": "package p\n",
	})
	p, s := newStage(t, dir)
	for _, gone := range []string{".git/HEAD", "build/out.txt"} {
		if _, err := os.Stat(filepath.Join(s.Dir, gone)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s was copied into the staging copy (%v)", gone, err)
		}
	}
	// The agent's .gitignore now ignores kept.go, which stays a file of
	// the project (not deleted); huge.txt is over what a change set holds.
	testfix.WriteFiles(t, s.Dir, map[string]string{"p.go": "package p\n\nvar P = 2\n", "sub/new.go": "package sub\n", "bin.dat": "\x00\x01\x02",
		".gitignore": "build/\nkept.go\n", "huge.txt": strings.Repeat("x", changeset.MaxTotalBytes+1)})
	if err := os.Remove(filepath.Join(s.Dir, "old.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(s.Dir, "link")); err != nil {
		t.Fatal(err)
	}

	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	m := changeset.NewManager(db, p)
	cs, skipped, err := s.Propose(context.Background(), m, workbench.Reader{Project: p}.Func(context.Background()),
		changeset.Proposal{Title: "Agent: staged", Client: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range cs.Files {
		got = append(got, f.Path+":"+f.Action)
	}
	want := []string{".gitignore:replace", "old.go:delete", "p.go:replace", "sub/new.go:create"}
	if cs.State != changeset.StatePending || !slices.Equal(got, want) {
		t.Errorf("change set %s: %s %v; want pending %v", cs.ID, cs.State, got, want)
	}
	if len(skipped) != 2 || !strings.HasPrefix(skipped[0], "bin.dat: not text") || !strings.HasPrefix(skipped[1], "huge.txt: larger than") {
		t.Errorf("skipped %q; want bin.dat as not text and huge.txt as too large", skipped)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "p.go")); string(data) != "package p\n" {
		t.Errorf("the project's p.go is %q", data)
	}
}

// TestMissingBubblewrapSaysSoAndOffersUnsandboxed: without bwrap a
// command is refused with what is missing, how to install it and that
// the unsandboxed mode exists; that mode runs in the staging copy.
func TestMissingBubblewrapSaysSoAndOffersUnsandboxed(t *testing.T) {
	p, err := project.Open(testfix.Project(t, map[string]string{"go.mod": "module p\n"}))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sandbox.NewStage(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t.Setenv("PATH", t.TempDir())
	_, err = sandbox.Command(context.Background(), s, sandbox.Options{}, "", nil, "/bin/sh", "-c", "true")
	if !errors.Is(err, sandbox.ErrNoSandbox) || !strings.Contains(err.Error(), "bubblewrap (bwrap) is not installed") ||
		!strings.Contains(err.Error(), "apt-get install bubblewrap") || !strings.Contains(err.Error(), "unsandboxed") {
		t.Fatalf("without bwrap: %v", err)
	}
	cmd, err := sandbox.Command(context.Background(), s, sandbox.Options{Unsandboxed: true}, "", nil, "/bin/sh", "-c", "echo made > made.txt")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("unsandboxed: %v: %s", err, out)
	}
	if data, err := os.ReadFile(filepath.Join(s.Dir, "made.txt")); err != nil || string(data) != "made\n" {
		t.Fatalf("the unsandboxed command's file: %q, %v", data, err)
	}
}

// TestStagingCopyHasTheProjectsHistory: in a git project the staging copy
// is a repository at the project's HEAD in which the person's uncommitted
// change shows as one; the project's own git settings run nothing.
func TestStagingCopyHasTheProjectsHistory(t *testing.T) {
	dir := testfix.Project(t, map[string]string{"go.mod": "module p\n", "p.go": "package p\n"})
	run := func(dir string, args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run(dir, "init", "-q")
	run(dir, "add", "-A")
	run(dir, "commit", "-qm", "the start")
	pwned := filepath.Join(t.TempDir(), "pwned")
	run(dir, "config", "core.fsmonitor", "touch "+pwned)
	testfix.WriteFiles(t, dir, map[string]string{"p.go": "package p\n\n// uncommitted\n"})
	_, s := newStage(t, dir)
	if s.GitProblem != nil {
		t.Fatal(s.GitProblem)
	}
	if log := run(s.Dir, "log", "--format=%s"); log != "the start\n" {
		t.Errorf("git log in the staging copy: %q", log)
	}
	if st := run(s.Dir, "status", "--short"); st != " M p.go\n" {
		t.Errorf("git status in the staging copy: %q; want the uncommitted p.go", st)
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Error("the project's core.fsmonitor ran")
	}
}

// TestSandboxedCommandCannotWriteTheProjectOrReadHidden: inside the
// sandbox the project is read-only, the staging copy writable, and a
// hidden folder empty.
func TestSandboxedCommandCannotWriteTheProjectOrReadHidden(t *testing.T) {
	testfix.RequireBwrap(t)
	dir := testfix.Project(t, map[string]string{"go.mod": "module p\n"})
	hidden := testfix.Project(t, map[string]string{"token.json": "secret\n"})
	_, s := newStage(t, dir)
	script := "echo staged > staged.txt; echo x > " + filepath.Join(dir, "x.txt") + "; echo project=$?; cat " +
		filepath.Join(hidden, "token.json") + "; echo hidden=$?"
	cmd, err := sandbox.Command(context.Background(), s, sandbox.Options{Hidden: []string{hidden}}, "", nil, "/bin/sh", "-c", script)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "project=2") || !strings.Contains(string(out), "hidden=1") || strings.Contains(string(out), "secret") {
		t.Errorf("in the sandbox: %s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.txt")); err == nil {
		t.Error("the command wrote the project")
	}
	if data, err := os.ReadFile(filepath.Join(s.Dir, "staged.txt")); err != nil || string(data) != "staged\n" {
		t.Errorf("staged.txt: %q, %v", data, err)
	}
}

// newStage opens the project in dir and makes its staging copy, removed
// when the test ends.
func newStage(t *testing.T, dir string) (*project.Project, *sandbox.Stage) {
	t.Helper()
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sandbox.NewStage(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return p, s
}
