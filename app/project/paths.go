package project

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"trestle/app/errdefs"
	"trestle/app/ignore"
)

// Resolve turns a project-relative (or absolute) path into an absolute one
// inside Root, following symlinks. It refuses with ErrOutside anything that
// lands outside Root, whether by "..", an absolute path or a symlink. A path
// that does not exist yet is resolved through its nearest existing parent,
// so it can be checked before it is created.
func (p *Project) Resolve(name string) (string, error) {
	if strings.ContainsRune(name, 0) {
		return "", fmt.Errorf("path %q contains a NUL byte: %w", name, errdefs.ErrInvalid)
	}
	joined := name
	if !filepath.IsAbs(name) {
		joined = filepath.Join(p.Root, filepath.FromSlash(name))
	}
	joined = filepath.Clean(joined)
	if !within(p.Root, joined) {
		return "", fmt.Errorf("%s: %w (root %s)", name, errdefs.ErrOutside, p.Root)
	}
	real, err := evalExisting(joined)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", name, err)
	}
	if !within(p.Root, real) {
		return "", fmt.Errorf("%s: %w (a symlink leads to %s)", name, errdefs.ErrOutside, real)
	}
	return real, nil
}

// ResolveShown is Resolve for what Trestle shows an agent (trestle_read,
// trestle_files, trestle_open, ReadFile, ListFiles): it also refuses, with
// ErrRefused, git's metadata (IsGitMetadata), whether named directly or
// reached through a symlink. Its config can hold credentials in remote URLs.
func (p *Project) ResolveShown(name string) (string, error) {
	real, err := p.Resolve(name)
	if err != nil {
		return "", err
	}
	joined := name
	if !filepath.IsAbs(name) {
		joined = filepath.Join(p.Root, filepath.FromSlash(name))
	}
	if p.isGitAbs(filepath.Clean(joined)) || p.isGitAbs(real) {
		return "", fmt.Errorf("%s is in git's own folder (.git), which Trestle does not show: its config can "+
			"hold credentials, and git runs commands named there. The branch and changed files are in "+
			"trestle_workbench: %w", name, errdefs.ErrRefused)
	}
	return real, nil
}

// IsGitMetadata reports whether rel (project-relative, slash-separated) is
// git's repository metadata: a .git in any letter case at any depth, or
// inside the repository folder a Root/.git file points to. Listings and
// searches skip it and ResolveShown refuses it.
func (p *Project) IsGitMetadata(rel string) bool {
	return p.isGitAbs(filepath.Join(p.Root, filepath.FromSlash(rel)))
}

func (p *Project) isGitAbs(abs string) bool {
	if ignore.InGitDir(p.Rel(abs)) {
		return true
	}
	return p.gitDir != "" && within(p.gitDir, abs)
}

// evalExisting resolves symlinks in the longest existing prefix of abs and
// appends the rest unchanged.
func evalExisting(abs string) (string, error) {
	rest := ""
	cur := abs
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// within reports whether target is root or below it, by path components.
func within(root, target string) bool {
	rel, err := filepath.Rel(root, target)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}
