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

// Path is a project path that Resolve has confined to the root. Only
// Resolve and ResolveShown make one, so holding a Path means the check was
// done: pass it on instead of resolving its name again. The zero Path is
// no path; Read refuses it. A Path is a plain value, safe to copy and to
// share between goroutines.
type Path struct {
	rel string // project-relative, forward slashes ("." for the root)
	abs string // absolute, symlinks resolved, inside the root
	git bool   // git's metadata (IsGitMetadata), by its name or through a symlink
}

// Rel is the path relative to the project root, with forward slashes
// ("." for the root itself).
func (cp Path) Rel() string { return cp.rel }

// Abs is the absolute path, symlinks resolved, inside the project root.
func (cp Path) Abs() string { return cp.abs }

// String is Rel, so a Path reads as itself in messages.
func (cp Path) String() string { return cp.rel }

// IsZero reports whether cp is the zero Path, which no Resolve returned.
func (cp Path) IsZero() bool { return cp.abs == "" }

// Resolve confines a project-relative (or absolute) path to Root, following
// symlinks. It refuses with ErrOutside anything that lands outside Root,
// whether by "..", an absolute path or a symlink. A path that does not exist
// yet is resolved through its nearest existing parent, so it can be checked
// before it is created.
func (p *Project) Resolve(name string) (Path, error) {
	p.resolutions.Add(1)
	joined, err := p.join(name)
	if err != nil {
		return Path{}, err
	}
	real, err := evalExisting(joined)
	if err != nil {
		return Path{}, fmt.Errorf("resolve %s: %w", name, err)
	}
	if !within(p.Root, real) {
		return Path{}, fmt.Errorf("%s: %w (a symlink leads to %s)", name, errdefs.ErrOutside, real)
	}
	return Path{rel: p.Rel(real), abs: real, git: p.isGitAbs(joined) || p.isGitAbs(real)}, nil
}

// join is name made absolute and clean under Root, refused when it
// contains a NUL byte or lands outside Root by its name alone.
func (p *Project) join(name string) (string, error) {
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
	return joined, nil
}

// ResolveShown is Resolve for what Trestle shows an agent (trestle_read,
// trestle_files, trestle_open, ReadFile, ListFiles): it also refuses, with
// ErrRefused, git's metadata (IsGitMetadata), whether named directly or
// reached through a symlink. Its config can hold credentials in remote URLs.
func (p *Project) ResolveShown(name string) (Path, error) {
	cp, err := p.Resolve(name)
	if err != nil {
		return Path{}, err
	}
	if err := cp.Shown(); err != nil {
		return Path{}, err
	}
	return cp, nil
}

// Shown returns nil when cp may be shown to an agent, else an error
// wrapping ErrRefused: cp is git's metadata (see ResolveShown).
func (cp Path) Shown() error {
	if cp.git {
		return fmt.Errorf("%s is in git's own folder (.git), which Trestle does not show: its config can "+
			"hold credentials, and git runs commands named there. The branch and changed files are in "+
			"trestle_workbench: %w", cp.rel, errdefs.ErrRefused)
	}
	return nil
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
