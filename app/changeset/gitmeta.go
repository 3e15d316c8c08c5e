package changeset

import (
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// gitDirNames are the names git (or a case-insensitive, 8.3 or
// trailing-dot-dropping file system under it) takes for the repository
// folder or a worktree's .git file.
var gitDirNames = []string{".git", "git~1"}

// gitDirFiles are the files that make a folder a repository folder (with
// refs/ and objects/, or commondir in place of objects/): a proposal that
// creates one could turn the project into a bare repository whose config
// runs commands (core.fsmonitor) when git looks at it.
var gitDirFiles = []string{"head", "commondir", "gitdir"}

// gitMetadata says why rel (project-relative, forward slashes) is
// repository metadata git would read, or "" when it is not. It refuses a
// .git in any folder and the files that make a folder a repository, in any
// letter case, and anything inside a folder that already holds a HEAD
// (that folder is a repository). headIn reports whether a folder of the
// project (project-relative, "." for the root) holds a HEAD file.
func gitMetadata(rel string, headIn func(dir string) bool) string {
	parts := strings.Split(rel, "/")
	for _, part := range parts {
		name := strings.ToLower(strings.TrimRight(part, ". "))
		for _, g := range gitDirNames {
			if name == g {
				return "change sets never touch .git (git's repository metadata), in any folder or letter case"
			}
		}
	}
	base := strings.ToLower(parts[len(parts)-1])
	for _, g := range gitDirFiles {
		if base == g {
			return "a file named " + parts[len(parts)-1] + " would make its folder a git repository (git reads HEAD, config and hooks there); change sets never create or edit git's repository metadata"
		}
	}
	for dir := path.Dir(rel); ; dir = path.Dir(dir) {
		if headIn(dir) {
			where := "the project folder"
			if dir != "." {
				where = dir
			}
			return where + " holds a HEAD file, so git takes it for a repository; change sets never create or edit git's repository metadata"
		}
		if dir == "." || dir == path.Dir(dir) { // the root, or "/" for a path not yet confined
			return ""
		}
	}
}

// headFinder returns a cached headIn for gitMetadata over the folders of
// root, listed with readDir (os.ReadDir, or an apply's OSWriter.ReadDir,
// through the transaction's os.Root).
func headFinder(root string, readDir func(string) ([]fs.DirEntry, error)) func(dir string) bool {
	seen := map[string]bool{}
	return func(dir string) bool {
		if has, ok := seen[dir]; ok {
			return has
		}
		has := false
		if entries, err := readDir(filepath.Join(root, filepath.FromSlash(dir))); err == nil {
			for _, e := range entries {
				if strings.EqualFold(e.Name(), "HEAD") && !e.IsDir() { // the name first: IsDir may cost an lstat
					has = true
					break
				}
			}
		}
		seen[dir] = has
		return has
	}
}
