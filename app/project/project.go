package project

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"

	"trestle/app/errdefs"
	"trestle/app/ignore"
)

// Limits on what a project read or listing may return.
const (
	// MaxReadBytes is the largest file ReadFile returns: bigger files are
	// generated data or logs, and sending them to an agent costs more than it helps.
	MaxReadBytes = 8 << 20
	// DefaultListLimit and MaxListLimit bound ListFiles.
	DefaultListLimit = 1000
	MaxListLimit     = 20000
)

// Project is one opened project folder. It is immutable and safe for
// concurrent use.
type Project struct {
	// Root is absolute with symlinks resolved; every path handed out is inside it.
	Root string
	// Module is the module path from Root/go.mod, or "" when there is none.
	Module string
	// gitDir is the repository folder a Root/.git file points to, when it
	// is inside Root and not Root itself (git --separate-git-dir=./store).
	gitDir string
}

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

// Rel returns abs relative to Root with forward slashes ("." for Root).
func (p *Project) Rel(abs string) string {
	rel, err := filepath.Rel(p.Root, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

// FileText is the text of one project file.
type FileText struct {
	Path   string // project-relative, forward slashes
	Text   string
	Lines  int
	SHA256 string // hex of the bytes of Text
}

// NewFileText describes text as the content of the project file rel.
func NewFileText(rel, text string) FileText {
	sum := sha256.Sum256([]byte(text))
	return FileText{Path: rel, Text: text, Lines: CountLines(text), SHA256: hex.EncodeToString(sum[:])}
}

// ReadFile reads a project file from disk. It refuses git's metadata
// (see ResolveShown), folders, binary files
// (a NUL byte in the first 8 KiB) and files over MaxReadBytes.
func (p *Project) ReadFile(name string) (FileText, error) {
	abs, err := p.ResolveShown(name)
	if err != nil {
		return FileText{}, err
	}
	rel := p.Rel(abs)
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return FileText{}, fmt.Errorf("read %s: no such file: %w", rel, errdefs.ErrNotFound)
	case err != nil:
		return FileText{}, fmt.Errorf("read %s: %w", rel, err)
	case info.IsDir():
		return FileText{}, fmt.Errorf("read %s: it is a folder; list it with trestle_files: %w", rel, errdefs.ErrInvalid)
	case !info.Mode().IsRegular(): // a FIFO or device would block the read, or never end
		return FileText{}, fmt.Errorf("read %s: not a regular file (%v): %w", rel, info.Mode().Type(), errdefs.ErrInvalid)
	case info.Size() > MaxReadBytes:
		return FileText{}, fmt.Errorf("read %s: %d bytes is over the %d byte limit: %w", rel, info.Size(), MaxReadBytes, errdefs.ErrTooLarge)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return FileText{}, fmt.Errorf("read %s: %w", rel, err)
	}
	if IsBinary(data) {
		return FileText{}, fmt.Errorf("read %s: binary file (NUL bytes), not text: %w", rel, errdefs.ErrInvalid)
	}
	return NewFileText(rel, string(data)), nil
}

// IsBinary reports whether data looks binary: a NUL byte in its first 8 KiB.
func IsBinary(data []byte) bool {
	head := data[:min(len(data), 8<<10)]
	return strings.IndexByte(string(head), 0) >= 0
}

// CountLines counts lines the way an editor shows them: "" is one empty
// line, and a final newline does not start a counted line.
func CountLines(text string) int {
	n := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") || text == "" {
		n++
	}
	return n
}

// SliceLines returns lines start..end (1-based, inclusive) of text. end 0
// means to the last line; an end past the last line is clamped.
func SliceLines(text string, start, end int) (string, error) {
	total := CountLines(text)
	if start < 1 {
		start = 1
	}
	if end == 0 || end > total {
		end = total
	}
	if start > total {
		return "", fmt.Errorf("start_line %d is past the last line (%d): %w", start, total, errdefs.ErrInvalid)
	}
	if end < start {
		return "", fmt.Errorf("end_line %d is before start_line %d: %w", end, start, errdefs.ErrInvalid)
	}
	lines := strings.SplitAfter(text, "\n")
	return strings.Join(lines[start-1:end], ""), nil
}

// ListFiles lists the files under the project folder under (""/"." for the
// root), skipping git's metadata (see IsGitMetadata) and what .gitignore ignores, and not following
// symlinked folders. glob, when set, is matched with path.Match against the
// project-relative path and against the base name. It returns at most limit paths (sorted, forward slashes) and
// whether more were left off.
func (p *Project) ListFiles(ctx context.Context, under, glob string, limit int) ([]string, bool, error) {
	if glob != "" {
		if _, err := path.Match(glob, ""); err != nil {
			return nil, false, fmt.Errorf("glob %q: %v: %w", glob, err, errdefs.ErrInvalid)
		}
	}
	if limit <= 0 {
		limit = DefaultListLimit
	}
	limit = min(limit, MaxListLimit)
	start, err := p.ResolveShown(under)
	if err != nil {
		return nil, false, err
	}
	if info, err := os.Stat(start); err != nil {
		return nil, false, fmt.Errorf("list %s: no such folder: %w", under, errdefs.ErrNotFound)
	} else if !info.IsDir() {
		return nil, false, fmt.Errorf("list %s: not a folder: %w", under, errdefs.ErrInvalid)
	}
	files := []string{} // an empty list is [], not null, in JSON
	truncated := false
	ignored := ignore.New(p.Root)
	err = filepath.WalkDir(start, func(abs string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is skipped, not fatal
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		rel := p.Rel(abs)
		if d.IsDir() {
			if rel != "." && (p.IsGitMetadata(rel) || ignored.Ignored(rel, true)) {
				return filepath.SkipDir
			}
			return nil
		}
		if p.IsGitMetadata(rel) || ignored.Ignored(rel, false) {
			return nil
		}
		if glob != "" && !matchGlob(glob, rel) {
			return nil
		}
		if len(files) == limit {
			truncated = true
			return filepath.SkipAll
		}
		files = append(files, rel)
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("list %s: %w", under, err)
	}
	sort.Strings(files)
	return files, truncated, nil
}

func matchGlob(glob, rel string) bool {
	if ok, _ := path.Match(glob, rel); ok {
		return true
	}
	ok, _ := path.Match(glob, path.Base(rel))
	return ok
}
