package sandbox

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"trestle/app/changeset"
	"trestle/app/ignore"
	"trestle/app/project"
)

// Stage is one session's staging copy of a project: the project's files as
// they are on disk when the session starts (the person's uncommitted
// changes included; what .gitignore ignores and symlinks left out), in a
// folder of its own, with a git repository of its own at the project's
// HEAD when the project has one (see addGit), and a temporary folder for
// the session. What the agent changes there is what Changes reports. Safe for
// concurrent use; Close removes both folders.
type Stage struct {
	// Project is the real project's root (symlinks resolved).
	Project string
	// Dir is the staging copy's root: the agent's working folder.
	Dir string
	// Tmp is the session's temporary folder (TMPDIR and the Go build cache
	// of commands run in the sandbox).
	Tmp string

	// GitProblem says why the staging copy has no git history though the
	// project has (nil when it has, or the project has none): the copy
	// works without it.
	GitProblem error

	base string // holds Dir and Tmp

	mu sync.Mutex
	// snapshot is each project-relative path's sha256 as copied in (or
	// brought in since by Follow).
	snapshot map[string][32]byte
}

// NewStage copies the project p into a new staging folder under the user's
// temporary folder.
func NewStage(ctx context.Context, p *project.Project) (*Stage, error) {
	base, err := os.MkdirTemp("", "trestle-agent-")
	if err != nil {
		return nil, fmt.Errorf("make the staging folder for %s: %w", p.Root, err)
	}
	base, err = filepath.EvalSymlinks(base)
	if err != nil {
		return nil, fmt.Errorf("make the staging folder for %s: %w", p.Root, err)
	}
	s := &Stage{Project: p.Root, Dir: filepath.Join(base, filepath.Base(p.Root)), Tmp: filepath.Join(base, "tmp"),
		base: base, snapshot: map[string][32]byte{}}
	if err := os.Mkdir(s.Tmp, 0o700); err != nil {
		s.Close()
		return nil, fmt.Errorf("make the session's temporary folder: %w", err)
	}
	if err := s.copyProject(ctx, p); err != nil {
		s.Close()
		return nil, fmt.Errorf("copy %s into the staging folder: %w", p.Root, err)
	}
	s.GitProblem = s.addGit(ctx)
	return s, nil
}

// Close removes the staging copy and the session's temporary folder.
func (s *Stage) Close() error {
	// Folders a command made read-only would stop RemoveAll.
	filepath.WalkDir(s.base, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o700)
		}
		return nil
	})
	return os.RemoveAll(s.base)
}

// copyProject copies p's files into s.Dir and records their hashes.
func (s *Stage) copyProject(ctx context.Context, p *project.Project) error {
	if err := os.Mkdir(s.Dir, 0o755); err != nil {
		return err
	}
	return walkFiles(ctx, p.Root, p.IsGitMetadata, func(rel string, info fs.FileInfo) error {
		dst := filepath.Join(s.Dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		sum, err := copyFile(filepath.Join(p.Root, filepath.FromSlash(rel)), dst, info.Mode().Perm())
		if err != nil {
			return err
		}
		s.snapshot[rel] = sum
		return nil
	})
}

// walkFiles calls fn for each regular file under root, skipping git's
// metadata, what .gitignore ignores, symlinks and other special files.
// Paths are root-relative with forward slashes.
func walkFiles(ctx context.Context, root string, gitMeta func(rel string) bool, fn func(rel string, info fs.FileInfo) error) error {
	ignored := ignore.New(root)
	return filepath.WalkDir(root, func(abs string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		if gitMeta(rel) || ignored.Ignored(rel, d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return fn(rel, info)
	})
}

// copyFile copies src to a new file dst and returns the sha256 of what it copied.
func copyFile(src, dst string, perm fs.FileMode) ([32]byte, error) {
	in, err := os.Open(src)
	if err != nil {
		return [32]byte{}, err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm|0o200)
	if err != nil {
		return [32]byte{}, err
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(out, h), in); err != nil {
		out.Close()
		return [32]byte{}, err
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum, out.Close()
}

// A Change is one file the agent changed in the staging copy.
type Change struct {
	Path    string // project-relative, forward slashes
	Deleted bool
	Content []byte // the staging copy's content when not Deleted and not TooLarge
	// TooLarge is set, and Content left out, for a file larger than a
	// change set may hold (changeset.MaxTotalBytes), or once the changes
	// read reach that much: the agent cannot make Trestle read gigabytes.
	TooLarge bool
}

// Changes compares the staging copy with what was copied in and returns
// the files the agent created, changed or deleted, sorted by path.
// Symlinks and special files it made are not files of a change set and
// are not reported.
func (s *Stage) Changes(ctx context.Context) ([]Change, error) {
	var out []Change
	seen := map[string]bool{}
	budget := changeset.MaxTotalBytes
	s.mu.Lock()
	snapshot := maps.Clone(s.snapshot)
	s.mu.Unlock()
	consider := func(rel string, info fs.FileInfo) error {
		seen[rel] = true
		abs := filepath.Join(s.Dir, filepath.FromSlash(rel))
		if old, ok := snapshot[rel]; ok {
			sum, err := hashFile(abs)
			if err != nil || sum == old {
				return err
			}
		}
		if info.Size() > int64(budget) {
			out = append(out, Change{Path: rel, TooLarge: true})
			return nil
		}
		data, err := os.ReadFile(abs)
		if err != nil {
			return err
		}
		budget -= len(data)
		out = append(out, Change{Path: rel, Content: data})
		return nil
	}
	err := walkFiles(ctx, s.Dir, func(rel string) bool { return ignore.InGitDir(rel) }, consider)
	// A file that was copied in and is now ignored (the agent changed
	// .gitignore) is still a file of the project: compared, not deleted.
	for rel := range snapshot {
		if err != nil || seen[rel] {
			continue
		}
		info, lerr := os.Lstat(filepath.Join(s.Dir, filepath.FromSlash(rel)))
		if lerr == nil && info.Mode().IsRegular() {
			err = consider(rel, info)
		} else {
			out = append(out, Change{Path: rel, Deleted: true})
		}
	}
	if err != nil {
		return nil, fmt.Errorf("compare the staging copy %s with %s: %w", s.Dir, s.Project, err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// Unchanged reports whether the staging copy's file rel is still what was
// copied in (so the person's editor text is the better answer to a read).
func (s *Stage) Unchanged(rel string) bool {
	s.mu.Lock()
	old, ok := s.snapshot[rel]
	s.mu.Unlock()
	if !ok {
		return false
	}
	sum, err := hashFile(filepath.Join(s.Dir, filepath.FromSlash(rel)))
	return err == nil && sum == old
}

// hashFile is the sha256 of the file at path, read as a stream.
func hashFile(path string) ([32]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return [32]byte{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return [32]byte{}, err
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum, nil
}
