package project

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"

	"trestle/app/errdefs"
)

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
	dir, err := p.ResolveShown(under)
	if err != nil {
		return nil, false, err
	}
	start := dir.Abs()
	if info, err := os.Stat(start); err != nil {
		return nil, false, fmt.Errorf("list %s: no such folder: %w", under, errdefs.ErrNotFound)
	} else if !info.IsDir() {
		return nil, false, fmt.Errorf("list %s: not a folder: %w", under, errdefs.ErrInvalid)
	}
	files := []string{} // an empty list is [], not null, in JSON
	truncated := false
	ignored := p.Ignore()
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
