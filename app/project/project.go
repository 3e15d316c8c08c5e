package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/mod/modfile"

	"trestle/app/errdefs"
	"trestle/app/ignore"
)

// Project is one opened project folder. It is immutable (but for a count of
// resolutions) and safe for concurrent use.
type Project struct {
	// Root is absolute with symlinks resolved; every path handed out is inside it.
	Root string
	// Module is the module path from Root/go.mod, or "" when there is none.
	Module string
	// gitDir is the repository folder a Root/.git file points to, when it
	// is inside Root and not Root itself (git --separate-git-dir=./store).
	gitDir string
	// resolutions counts Resolve calls (see Resolutions).
	resolutions atomic.Uint64
	// ignore is the project's one .gitignore matcher (see Ignore).
	ignoreOnce sync.Once
	ignore     *ignore.Matcher
}

// Ignore is the project's .gitignore matcher, shared by every walk of the
// project (search, listing, the file tree), so each ignore file is read
// once; whoever watches the project tells it of changed ignore files
// (Matcher.Saw). Safe for concurrent use.
func (p *Project) Ignore() *ignore.Matcher {
	p.ignoreOnce.Do(func() { p.ignore = ignore.New(p.Root) })
	return p.ignore
}

// Resolutions is how many paths Resolve has confined on p so far. Tests use
// it to hold every caller to one resolution per path per call: a caller
// holding a Path passes it on instead of resolving its name again.
func (p *Project) Resolutions() uint64 { return p.resolutions.Load() }

// Open resolves dir (absolute, symlinks resolved), checks that it is a
// folder and reads the module path from its go.mod when there is one.
func Open(dir string) (*Project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open project %s: %w", dir, err)
	}
	root, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("open project %s: no such folder: %w", abs, errdefs.ErrNotFound)
		}
		return nil, fmt.Errorf("open project %s: %w", abs, err)
	}
	info, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("open project %s: %w", root, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("open project %s: not a folder: %w", root, errdefs.ErrInvalid)
	}
	p := &Project{Root: root, gitDir: linkedGitDir(root)}
	if data, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil {
		p.Module = modfile.ModulePath(data)
	}
	return p, nil
}

// linkedGitDir is the folder root/.git names with "gitdir: ...", when it
// is inside root and not root itself; "" otherwise.
func linkedGitDir(root string) string {
	dotgit := filepath.Join(root, ".git")
	info, err := os.Lstat(dotgit)
	if err != nil || !info.Mode().IsRegular() || info.Size() > 4<<10 {
		return ""
	}
	data, err := os.ReadFile(dotgit)
	if err != nil {
		return ""
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return ""
	}
	target = filepath.FromSlash(strings.TrimSpace(target))
	if !filepath.IsAbs(target) {
		target = filepath.Join(root, target)
	}
	real, err := evalExisting(filepath.Clean(target))
	if err != nil || real == root || !within(root, real) {
		return ""
	}
	return real
}

// Rel returns abs relative to Root with forward slashes ("." for Root).
func (p *Project) Rel(abs string) string {
	rel, err := filepath.Rel(p.Root, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}
