package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"trestle/app/gitstatus"
)

// addGit makes the staging copy a git repository whose HEAD is the
// project's HEAD and whose objects are read from the project's own
// (through alternates, read-only in the sandbox), so the agent's git log,
// diff and status work and show the person's uncommitted changes as
// such; its commits stay in the staging copy. The project's repository is
// only read, by hardened git with its settings neutralised (package
// gitstatus), so nothing it configures runs. It does nothing
// when the project's root holds no repository or git is missing; an
// error says what failed, and the staging copy then has no .git.
func (s *Stage) addGit(ctx context.Context) error {
	objects, ok := objectsDir(s.Project)
	if !ok {
		return nil
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil
	}
	head, err := projectHead(ctx, s.Project)
	if err != nil || head == "" {
		return err
	}
	steps := [][]string{
		{"init", "-q", "--template=", "."},
		{"update-ref", "HEAD", head},
		{"reset", "-q"}, // the index is HEAD; the files stay as the person has them
	}
	for i, args := range steps {
		if i == 1 {
			alt := filepath.Join(s.Dir, ".git", "objects", "info", "alternates")
			if err := os.MkdirAll(filepath.Dir(alt), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(alt, []byte(objects+"\n"), 0o644); err != nil {
				return err
			}
		}
		if err := s.git(ctx, args...); err != nil {
			os.RemoveAll(filepath.Join(s.Dir, ".git"))
			return err
		}
	}
	return nil
}

// projectHead is the commit of the project's HEAD, "" before the first commit.
func projectHead(ctx context.Context, root string) (string, error) {
	cmd, err := gitstatus.Command(ctx, gitstatus.Repository{GitDir: filepath.Join(root, ".git"), WorkTree: root}, "rev-parse", "--verify", "-q", "HEAD^{commit}")
	if err != nil {
		return "", err
	}
	out, err := cmd.Output()
	if err != nil {
		return "", nil // no commit yet: nothing to start from
	}
	return strings.TrimSpace(string(out)), nil
}

// git runs git in the staging copy, with no hooks or fsmonitor.
func (s *Stage) git(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"}, args...)...)
	cmd.Dir = s.Dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("git %s in the staging copy: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// objectsDir is the object folder of the repository whose .git (folder,
// or file naming one) is in root.
func objectsDir(root string) (string, bool) {
	dir := filepath.Join(root, ".git")
	info, err := os.Lstat(dir)
	switch {
	case err != nil:
		return "", false
	case info.Mode().IsRegular():
		data, err := os.ReadFile(dir)
		target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
		if err != nil || !ok {
			return "", false
		}
		dir = strings.TrimSpace(target)
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
	case !info.IsDir():
		return "", false
	}
	if data, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil {
		common := strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(dir, common)
		}
		dir = common
	}
	objects := filepath.Join(dir, "objects")
	if info, err := os.Stat(objects); err != nil || !info.IsDir() {
		return "", false
	}
	return objects, true
}
