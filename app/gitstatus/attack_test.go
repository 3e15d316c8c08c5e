package gitstatus

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"trestle/internal/testfix"
)

// hostileConfig is a repository config whose fsmonitor hook (run by git
// through the shell on every status) creates marker.
func hostileConfig(marker string) string {
	return "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n" +
		"\tfsmonitor = \"touch " + marker + "; false\"\n" +
		"\thooksPath = hooks\n"
}

func needGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// assertNoMarker fails when the attacker's command ran.
func assertNoMarker(t *testing.T, marker string) {
	t.Helper()
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("git ran the project's command: %s exists", marker)
	}
}

// TestReadDoesNotRunABareRootsFsmonitor is issue 11 item 5: a change set
// that creates HEAD, config (worktree = ., core.fsmonitor = a command),
// objects/ and refs/ at the project root makes the root a bare repository
// to git's discovery, and trestle_workbench's git status ran the command
// even under the deny policy.
func TestReadDoesNotRunABareRootsFsmonitor(t *testing.T) {
	needGit(t)
	root, marker := t.TempDir(), filepath.Join(t.TempDir(), "pwned")
	testfix.WriteFiles(t, root, map[string]string{
		"HEAD": "ref: refs/heads/main\n", "config": hostileConfig(marker),
		"objects/info/keep": "", "refs/heads/keep": "", "main.go": "package main\n",
	})
	st, ok, err := Read(context.Background(), root, true)
	assertNoMarker(t, marker)
	if ok || err != nil {
		t.Fatalf("a root with HEAD and config files is no repository of the project's: %+v %v %v", st, ok, err)
	}
}

// TestReadDoesNotRunAGitfileTargetsFsmonitor: .git is a file naming a
// repository folder inside the project, whose config the agent wrote.
func TestReadDoesNotRunAGitfileTargetsFsmonitor(t *testing.T) {
	needGit(t)
	root, marker := t.TempDir(), filepath.Join(t.TempDir(), "pwned")
	testfix.WriteFiles(t, root, map[string]string{
		".git": "gitdir: store\n", "store/HEAD": "ref: refs/heads/main\n", "store/config": hostileConfig(marker),
		"store/objects/info/keep": "", "store/refs/heads/keep": "", "main.go": "package main\n",
	})
	Read(context.Background(), root, true)
	assertNoMarker(t, marker)
}

// TestReadOverridesTheRepositorysFsmonitor: a real repository whose own
// .git/config sets core.fsmonitor to a command; our command-line settings
// win over it, so status never runs it.
func TestReadOverridesTheRepositorysFsmonitor(t *testing.T) {
	needGit(t)
	root, marker := t.TempDir(), filepath.Join(t.TempDir(), "pwned")
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	testfix.WriteFiles(t, root, map[string]string{"a.go": "package a\n"})
	git("add", "a.go")
	git("commit", "-q", "-m", "first")
	git("config", "core.fsmonitor", "touch "+marker+"; false")
	testfix.WriteFiles(t, root, map[string]string{"a.go": "package a // changed\n"})
	st, ok, err := Read(context.Background(), root, true)
	assertNoMarker(t, marker)
	if !ok || err != nil || st.Branch != "main" || len(st.Changed) != 1 {
		t.Fatalf("status of the real repository: %+v %v %v", st, ok, err)
	}
}

// TestReadFromASubfolderOfARepository: a project that is a folder inside a
// repository still gets the repository's status.
func TestReadFromASubfolderOfARepository(t *testing.T) {
	needGit(t)
	root := t.TempDir()
	cmd := exec.Command("git", "init", "-q", "-b", "trunk", root)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	testfix.WriteFiles(t, root, map[string]string{"sub/x.go": "package x\n"})
	st, ok, err := Read(context.Background(), filepath.Join(root, "sub"), true)
	if !ok || err != nil || st.Branch != "trunk" {
		t.Fatalf("status from a subfolder: %+v %v %v", st, ok, err)
	}
}

// TestReadDoesNotRunANestedRepositorysFsmonitor: inside a real repository,
// a folder with a .git file naming a hostile repository next to it, and a
// project folder made to look bare (files a change set could create), are
// no way in either: the status of a project in a subfolder is the outer
// repository's.
func TestReadDoesNotRunANestedRepositorysFsmonitor(t *testing.T) {
	needGit(t)
	root, marker := t.TempDir(), filepath.Join(t.TempDir(), "pwned")
	if out, err := exec.Command("git", "init", "-q", "-b", "main", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	testfix.WriteFiles(t, root, map[string]string{
		"sub/.git": "gitdir: store\n", "sub/store/HEAD": "ref: refs/heads/main\n", "sub/store/config": hostileConfig(marker),
		"sub/store/objects/info/keep": "", "sub/store/refs/heads/keep": "", "sub/x.go": "package x\n",
		"bare/HEAD": "ref: refs/heads/main\n", "bare/config": hostileConfig(marker),
		"bare/objects/info/keep": "", "bare/refs/heads/keep": "",
	})
	if _, ok, err := Read(context.Background(), root, true); !ok || err != nil {
		t.Fatalf("status: %v %v", ok, err)
	}
	if _, _, err := Read(context.Background(), filepath.Join(root, "bare"), true); err != nil {
		t.Fatalf("status from a bare-looking subfolder: %v", err)
	}
	assertNoMarker(t, marker)
}
