package sandbox

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"trestle/app/ignore"
	"trestle/app/project"
)

// Follow brings the person's own changes to the project (their saves, a
// change set they applied) into the staging copy, so that the agent works
// on the project as it is: each of rels (project-relative, slash
// separated; a folder stands for the files under it, "." for all) that
// the agent has not changed in the copy takes the project's content, or
// goes when it went from the project. A file the agent changed keeps the
// agent's version and is returned in kept: its change set then shows the
// agent's version against the person's. A project file that now equals
// the agent's version (its change applied) counts as the project's again.
// Writes stay inside the copy, whatever symlinks the agent planted there.
// What .gitignore ignores, git's metadata and symlinks are left out, as
// when the copy was made. Safe for concurrent use.
func (s *Stage) Follow(ctx context.Context, p *project.Project, rels []string) (kept []string, err error) {
	files, err := s.followed(ctx, p, rels)
	if err != nil {
		return nil, err
	}
	src, err := os.OpenRoot(s.Project)
	if err != nil {
		return nil, fmt.Errorf("follow the project's changes: %w", err)
	}
	defer src.Close()
	dst, err := os.OpenRoot(s.Dir)
	if err != nil {
		return nil, fmt.Errorf("follow the project's changes: %w", err)
	}
	defer dst.Close()
	for _, rel := range files {
		agents, err := s.followFile(src, dst, rel)
		if err != nil {
			return kept, fmt.Errorf("bring %s from %s into the staging copy %s: %w", rel, s.Project, s.Dir, err)
		}
		if agents {
			kept = append(kept, rel)
		}
	}
	return kept, nil
}

// followed is the files rels name: the project's files under each (what
// the copy would hold) and the copied-in files under each, sorted and
// without repeats.
func (s *Stage) followed(ctx context.Context, p *project.Project, rels []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(rel string) {
		if !seen[rel] {
			seen[rel] = true
			out = append(out, rel)
		}
	}
	ignored := ignore.New(p.Root)
	for _, rel := range rels {
		rel = path.Clean(rel)
		if rel != "." && (p.IsGitMetadata(rel) || ignored.Ignored(rel, false)) {
			continue
		}
		info, err := os.Lstat(p.Root + "/" + rel)
		switch {
		case err == nil && info.IsDir():
			err := walkFiles(ctx, p.Root, p.IsGitMetadata, func(r string, _ fs.FileInfo) error {
				if rel == "." || strings.HasPrefix(r, rel+"/") {
					add(r)
				}
				return nil
			})
			if err != nil {
				return nil, fmt.Errorf("follow the project's changes under %s: %w", rel, err)
			}
		case err == nil || errors.Is(err, fs.ErrNotExist):
			add(rel)
		default:
			return nil, fmt.Errorf("follow the project's changes: %w", err)
		}
		s.mu.Lock()
		for r := range s.snapshot {
			if rel == "." || r == rel || strings.HasPrefix(r, rel+"/") {
				add(r)
			}
		}
		s.mu.Unlock()
	}
	return out, nil
}

// followFile brings the project's rel into the copy unless the agent
// changed it there (agents true).
func (s *Stage) followFile(src, dst *os.Root, rel string) (agents bool, err error) {
	now, inProject, err := hashIn(src, rel)
	if err != nil {
		return false, err
	}
	// In the copy, a path the agent made unreadable or led out of it
	// (a symlinked folder) is not the file that was copied in.
	cur, inCopy, err := hashIn(dst, rel)
	if err != nil {
		inCopy = false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, copied := s.snapshot[rel]
	switch {
	case inProject == inCopy && now == cur: // the same in both (or in neither)
	case inCopy == copied && cur == old: // the agent left it as it was
		if !inProject {
			if err := dst.Remove(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return false, err
			}
			break
		}
		if now, err = copyIn(src, dst, rel); err != nil {
			return false, err
		}
	default:
		return true, nil
	}
	if inProject {
		s.snapshot[rel] = now
	} else {
		delete(s.snapshot, rel)
	}
	return false, nil
}

// hashIn is the sha256 of the regular file rel in root; ok is false when
// there is none (absent, a folder, a symlink).
func hashIn(root *os.Root, rel string) (sum [32]byte, ok bool, err error) {
	info, err := root.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || (err == nil && !info.Mode().IsRegular()) {
		return sum, false, nil
	}
	if err != nil {
		return sum, false, err
	}
	f, err := root.Open(rel)
	if err != nil {
		return sum, false, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, false, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, true, nil
}

// copyIn copies rel from src into dst through a temporary file renamed
// over it, and returns the sha256 of what it copied.
func copyIn(src, dst *os.Root, rel string) ([32]byte, error) {
	var sum [32]byte
	in, err := src.Open(rel)
	if err != nil {
		return sum, err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return sum, err
	}
	if dir := path.Dir(rel); dir != "." {
		if err := dst.MkdirAll(dir, 0o755); err != nil {
			return sum, err
		}
	}
	tmp := rel + ".trestle-follow"
	out, err := dst.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, info.Mode().Perm()|0o200)
	if err != nil {
		return sum, err
	}
	h := sha256.New()
	_, err = io.Copy(io.MultiWriter(out, h), in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = dst.Rename(tmp, rel)
	}
	if err != nil {
		dst.Remove(tmp)
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}
