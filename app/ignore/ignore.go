package ignore

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"trestle/app/watch"
)

// maxIgnoreFile bounds how much of one ignore file is read: a real
// .gitignore is a few KiB; anything past 1 MiB is not one worth obeying.
const maxIgnoreFile = 1 << 20

// Matcher tells ignored project paths from the others. Each folder's
// .gitignore is read the first time a path below that folder is asked
// about, then kept until Forget (or Saw reports it changed): one Matcher
// per project, shared by every walk, reads each file once. Safe for
// concurrent use.
type Matcher struct {
	root string
	mu   sync.Mutex
	// chains holds, per folder (slash, "" the root), the patterns that
	// apply below it: its ancestors' then its own, in the order git
	// weighs them (the last match wins).
	chains map[string][]pattern
}

// New returns a Matcher for the project folder root (absolute). It reads
// nothing until asked.
func New(root string) *Matcher {
	return &Matcher{root: root, chains: map[string][]pattern{}}
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
	clean := strings.Join(parts, "/")
	dirEnd := 0 // clean[:dirEnd] is the folder of parts[i-1]
	for i := 1; i <= len(parts); i++ {
		if parts[i-1] == ".git" {
			return true
		}
		if match(m.chain(clean[:dirEnd], parts[:i-1]), parts[:i], i < len(parts) || isDir) {
			return true
		}
		if dirEnd > 0 {
			dirEnd++ // the slash
		}
		dirEnd += len(parts[i-1])
	}
	return false
}

// match reports whether ps ignore path: the last pattern that matches
// decides, as in git.
func match(ps []pattern, path []string, isDir bool) bool {
	for i := len(ps) - 1; i >= 0; i-- {
		if ps[i].match(path, isDir) {
			return !ps[i].negated
		}
	}
	return false
}

// Forget drops what was read for the folder dir (project-relative, slash;
// "" the root, whose cache includes .git/info/exclude) and the folders
// below it, so that their ignore files are read again: call it when one
// of them changes.
func (m *Matcher) Forget(dir string) {
	key := strings.Join(split(dir), "/")
	m.mu.Lock()
	defer m.mu.Unlock()
	if key == "" {
		clear(m.chains)
		return
	}
	for k := range m.chains {
		if k == key || strings.HasPrefix(k, key+"/") {
			delete(m.chains, k)
		}
	}
}

// Saw forgets the folders whose .gitignore the watcher's events changed
// (every folder for a lost-events batch). Safe to call from the watcher's
// goroutine.
func (m *Matcher) Saw(events []watch.Event) {
	for _, e := range events {
		switch {
		case e.Path == watch.All:
			m.Forget("")
		case path.Base(e.Path) == ".gitignore":
			m.Forget(path.Dir(e.Path))
		}
	}
}

// split turns rel into clean path components; "", "." and "/" give none.
func split(rel string) []string {
	rel = strings.Trim(path.Clean("/"+filepath.ToSlash(rel)), "/")
	if rel == "" {
		return nil
	}
	return strings.Split(rel, "/")
}

// chain returns the patterns that apply below the folder key (whose
// components are dir), reading the ignore files of the folders on the
// way the first time.
func (m *Matcher) chain(key string, dir []string) []pattern {
	m.mu.Lock()
	ps, ok := m.chains[key]
	m.mu.Unlock()
	if ok {
		return ps
	}
	var parent []pattern
	if len(dir) > 0 {
		parent = m.chain(key[:max(strings.LastIndexByte(key, '/'), 0)], dir[:len(dir)-1])
	}
	folder := filepath.Join(m.root, filepath.FromSlash(key))
	var own []pattern
	if len(dir) == 0 {
		own = readPatterns(filepath.Join(folder, ".git", "info", "exclude"), nil)
	}
	own = append(own, readPatterns(filepath.Join(folder, ".gitignore"), dir)...)
	ps = parent
	if len(own) > 0 {
		ps = append(slices.Clip(parent), own...)
	}
	m.mu.Lock()
	m.chains[key] = ps
	m.mu.Unlock()
	return ps
}

// readPatterns parses the ignore file name, whose patterns apply below the
// folder domain. A missing, unreadable or oversized file has none.
func readPatterns(name string, domain []string) []pattern {
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
func parse(data []byte, domain []string) []pattern {
	domain = slices.Clone(domain) // kept by every pattern: not the caller's
	var ps []pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxIgnoreFile)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if p, ok := parsePattern(line, domain); ok {
			ps = append(ps, p)
		}
	}
	return ps
}
