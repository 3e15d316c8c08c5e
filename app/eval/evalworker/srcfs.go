package evalworker

import (
	"bufio"
	"go/build"
	"go/build/constraint"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// unixOS lists the GOOS values that satisfy the "unix" build tag.
var unixOS = []string{"aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "linux", "netbsd", "openbsd", "solaris"}

// sourceFS is the file system yaegi reads sources through: the real one,
// except that folder listings leave out the .go files whose //go:build line
// excludes them. yaegi v0.16.1 only understands the old "// +build" lines,
// so without this a file for another OS, or behind a tag the selection does
// not set, would be compiled too. Paths are the absolute ones yaegi uses.
// It is immutable and safe for concurrent use.
type sourceFS struct {
	tags map[string]bool
}

// newSourceFS satisfies the selection's tags, GOOS, GOARCH, unix, the
// release tags (go1.N) and purego; not cgo or gc, since the interpreter can
// use neither cgo nor assembly, and those files usually have a pure Go twin.
func newSourceFS(tags []string) sourceFS {
	set := map[string]bool{runtime.GOOS: true, runtime.GOARCH: true, "purego": true}
	if slices.Contains(unixOS, runtime.GOOS) {
		set["unix"] = true
	}
	for _, list := range [][]string{build.Default.ReleaseTags, build.Default.ToolTags, tags} {
		for _, t := range list {
			set[t] = true
		}
	}
	return sourceFS{tags: set}
}

// Open opens a file for reading.
func (s sourceFS) Open(name string) (fs.File, error) { return os.Open(name) }

// ReadDir lists a folder without the excluded .go files.
func (s sourceFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := os.ReadDir(name)
	return slices.DeleteFunc(entries, func(e fs.DirEntry) bool {
		return strings.HasSuffix(e.Name(), ".go") && !s.included(filepath.Join(name, e.Name()))
	}), err
}

// included evaluates the file's //go:build line; no line means included.
func (s sourceFS) included(path string) bool {
	expr := buildLine(path)
	return expr == nil || expr.Eval(func(tag string) bool { return s.tags[tag] })
}

// buildLine returns the //go:build expression of a Go file, read from the
// comments before its package clause, or nil.
func buildLine(path string) constraint.Expr {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	inBlock := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case inBlock:
			inBlock = !strings.Contains(line, "*/")
		case line == "":
		case strings.HasPrefix(line, "/*"):
			inBlock = !strings.Contains(line[2:], "*/")
		case constraint.IsGoBuild(line):
			expr, err := constraint.Parse(line)
			if err != nil {
				return nil
			}
			return expr
		case strings.HasPrefix(line, "//"):
		default:
			return nil // the package clause or code: no constraint
		}
	}
	return nil
}
