package ignore

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// maxIgnoreFile bounds how much of one ignore file is read: a real
// .gitignore is a few KiB; anything past 1 MiB is not one worth obeying.
const maxIgnoreFile = 1 << 20

// Matcher tells ignored project paths from the others. Each folder's
// .gitignore is read the first time a path below that folder is asked
// about, then kept until Forget. Safe for concurrent use.
type Matcher struct {
	root string
	mu   sync.Mutex
	dirs map[string][]gitignore.Pattern // folder (slash, "" the root) → its patterns
}

// New returns a Matcher for the project folder root (absolute). It reads
// nothing until asked.
func New(root string) *Matcher {
	return &Matcher{root: root, dirs: map[string][]gitignore.Pattern{}}
}

// Ignored reports whether rel (project-relative, slash separated) is
// ignored; isDir says whether rel is a folder, for patterns ending in "/".
// A path below an ignored folder is ignored, as in git: a negated pattern
// cannot bring it back. The root itself is never ignored.
func (m *Matcher) Ignored(rel string, isDir bool) bool {
	parts := split(rel)
	if len(parts) == 0 {
		return false
	}
	var ps []gitignore.Pattern
	for i := 1; i <= len(parts); i++ {
		if parts[i-1] == ".git" {
			return true
		}
		ps = append(ps, m.patterns(parts[:i-1])...)
		if gitignore.NewMatcher(ps).Match(parts[:i], i < len(parts) || isDir) {
			return true
		}
	}
	return false
}

// Forget drops what was read for the folder dir (project-relative, slash;
// "" the root, whose cache includes .git/info/exclude), so that its ignore
// files are read again: call it when one of them changes.
func (m *Matcher) Forget(dir string) {
	key := strings.Join(split(dir), "/")
	m.mu.Lock()
	delete(m.dirs, key)
	m.mu.Unlock()
}

// split turns rel into clean path components; "", "." and "/" give none.
func split(rel string) []string {
	rel = strings.Trim(path.Clean("/"+filepath.ToSlash(rel)), "/")
	if rel == "" {
		return nil
	}
	return strings.Split(rel, "/")
}

// patterns returns the patterns of the folder whose components are dir,
// reading its ignore files the first time.
func (m *Matcher) patterns(dir []string) []gitignore.Pattern {
	key := strings.Join(dir, "/")
	m.mu.Lock()
	ps, ok := m.dirs[key]
	m.mu.Unlock()
	if ok {
		return ps
	}
	folder := filepath.Join(m.root, filepath.FromSlash(key))
	if len(dir) == 0 {
		ps = readPatterns(filepath.Join(folder, ".git", "info", "exclude"), nil)
	}
	ps = append(ps, readPatterns(filepath.Join(folder, ".gitignore"), dir)...)
	m.mu.Lock()
	m.dirs[key] = ps
	m.mu.Unlock()
	return ps
}

// readPatterns parses the ignore file name, whose patterns apply below the
// folder domain. A missing, unreadable or oversized file has none.
func readPatterns(name string, domain []string) []gitignore.Pattern {
	info, err := os.Stat(name)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxIgnoreFile {
		return nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	return parse(data, domain)
}

// parse turns the lines of an ignore file into patterns: blank lines and
// comments are skipped, CRLF line ends accepted.
func parse(data []byte, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxIgnoreFile)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}
