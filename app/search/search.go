package search

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"trestle/app/ignore"
)

// Limits of one search.
const (
	DefaultLimit = 200
	MaxLimit     = 5000
	// MaxFileBytes skips files bigger than this: generated data, not code.
	MaxFileBytes = 8 << 20
	// maxLineText is how much of a matching line a result carries.
	maxLineText = 300
)

// Query is one search.
type Query struct {
	Pattern    string
	Regexp     bool // Pattern is a Go regular expression, else literal text
	IgnoreCase bool
	Glob       string // path.Match against the relative path or the base name; "" for all
	Limit      int    // most matches (DefaultLimit when 0, at most MaxLimit)
}

// Match is one matching line.
type Match struct {
	Path   string `json:"path"`   // project-relative, forward slashes
	Line   int    `json:"line"`   // 1-based
	Column int    `json:"column"` // 1-based, in characters
	Text   string `json:"text"`   // the line, cut to maxLineText bytes
}

// Options say what to skip besides .git.
type Options struct {
	// Ignored reports whether a project-relative path is ignored (by
	// .gitignore); nil ignores nothing.
	Ignored func(rel string, isDir bool) bool
}

// Result is the matches, sorted by path and line, and whether the limit
// cut them short.
type Result struct {
	Matches   []Match `json:"matches"`
	Truncated bool    `json:"truncated"`
	Files     int     `json:"files_searched"`
}

// Run searches the tree under root. It is safe for concurrent use: each
// call has its own workers, which end before it returns.
func Run(ctx context.Context, root string, q Query, opts Options) (Result, error) {
	re, err := compile(q)
	if err != nil {
		return Result{}, err
	}
	if q.Glob != "" {
		if _, err := path.Match(q.Glob, ""); err != nil {
			return Result{}, fmt.Errorf("glob %q: %w", q.Glob, err)
		}
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	s := &searcher{root: root, q: q, re: re, opts: opts, limit: limit}
	// The one-pass test of a whole file needs ^ and $ to work at every
	// line, as they do on the split lines; $ before a CR of a CRLF file
	// is only seen on split (and trimmed) lines, so such patterns skip it.
	switch {
	case !q.Regexp:
		s.whole = re
	case !strings.Contains(q.Pattern, "$"):
		s.whole = withinLines(re)
		s.pre = newKeyed(re)
	}
	if !q.Regexp && !q.IgnoreCase {
		s.lit = newLiteral([]byte(q.Pattern))
	}
	return s.run(ctx)
}

// keyed is the one-pass test of a whole file for a regexp every match of
// which contains a literal (`err != nil \{\s*return`, `func \(\w+ \*\w+\)
// Close\(\) error`): the literal is found as literal finds it, and the
// regexp is run on that literal's line alone. Go's regexp over a whole
// file steps its NFA through every occurrence of its start (GOROOT/src has
// 23,000 "err != nil {" in 2,468 files: 1.26-1.44x ripgrep on the quiet
// VM; "func (" starts nearly every method); on a short line it takes the
// backtracker. The literal is the rarest of those the regexp is a sequence
// of (by its rarest byte, as literal picks one), so for the second pattern
// ") Close() error", not "func (". When it is the regexp's start the regexp
// runs anchored at it, on the rest of its line. Every match stays within
// its line and holds the literal, so a file none of whose literals' lines
// match has no matching line.
type keyed struct {
	lit      *literal
	anchored *regexp.Regexp // ^(?:re), when lit starts re
	line     *regexp.Regexp // re, when lit is further in: run on lit's whole line
}

// newKeyed is re's keyed test, or nil when re is no sequence with a
// case-sensitive literal in it, or is a literal alone.
func newKeyed(re *regexp.Regexp) *keyed {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	tree = tree.Simplify()
	for tree.Op == syntax.OpCapture {
		tree = tree.Sub[0]
	}
	if tree.Op != syntax.OpConcat {
		return nil
	}
	best, bestRank, first := -1, 0, false
	for i, sub := range tree.Sub {
		if sub.Op != syntax.OpLiteral || sub.Flags&syntax.FoldCase != 0 || slices.Contains(sub.Rune, '\n') {
			continue
		}
		lit := newLiteral([]byte(string(sub.Rune)))
		rank := byteRank(lit.rare)*64 - min(len(lit.pat), 63) // rarer first, then longer
		if best < 0 || rank < bestRank {
			best, bestRank, first = i, rank, i == 0
		}
	}
	if best < 0 {
		return nil
	}
	k := &keyed{lit: newLiteral([]byte(string(tree.Sub[best].Rune)))}
	if !first {
		k.line = re
		return k
	}
	if k.anchored, err = regexp.Compile(`^(?:` + re.String() + `)`); err != nil {
		return nil
	}
	return k
}

// match reports whether a line of data may match (it never misses one).
func (k *keyed) match(data []byte) bool {
	for pos := 0; pos < len(data); {
		i := k.lit.index(data[pos:])
		if i < 0 {
			return false
		}
		at := pos + i
		end := bytes.IndexByte(data[at:], '\n')
		if end < 0 {
			end = len(data) - at
		}
		if k.anchored != nil {
			if k.anchored.Match(data[at : at+end]) {
				return true
			}
			pos = at + 1
			continue
		}
		start := bytes.LastIndexByte(data[:at], '\n') + 1
		if k.line.Match(data[start : at+end]) {
			return true
		}
		pos = at + end + 1 // its whole line is decided
	}
	return false
}

// withinLines is re for a whole file at once that matches exactly where
// re matches one of its lines: ^ and $ at every line, and no character
// class or dot that matches a newline, so a match can never run from one
// line into the next (`err != nil \{\s*return` would otherwise pass every
// file where a line ends with "err != nil {" and the next starts with
// return, though no line of it matches). nil when re cannot be rewritten:
// every file is then split into lines.
func withinLines(re *regexp.Regexp) *regexp.Regexp {
	tree, err := syntax.Parse("(?m)"+re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	noNewline(tree)
	whole, err := regexp.Compile(tree.String())
	if err != nil {
		return nil
	}
	return whole
}

// noNewline takes the newline out of every character class and dot in re.
func noNewline(re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpAnyChar:
		re.Op = syntax.OpAnyCharNotNL
	case syntax.OpLiteral: // a newline in the pattern is never inside a line
		if slices.Contains(re.Rune, '\n') {
			re.Op, re.Rune = syntax.OpNoMatch, nil
		}
	case syntax.OpCharClass:
		var out []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if lo <= '\n' && '\n' <= hi {
				if lo < '\n' {
					out = append(out, lo, '\n'-1)
				}
				if hi > '\n' {
					out = append(out, '\n'+1, hi)
				}
				continue
			}
			out = append(out, lo, hi)
		}
		if len(out) == 0 {
			re.Op, re.Rune = syntax.OpNoMatch, nil
			return
		}
		re.Rune = out
	}
	for _, sub := range re.Sub {
		noNewline(sub)
	}
}

// compile turns the query into one regexp; a literal is quoted, so one
// code path serves both (Go's regexp recognises a literal prefix and
// searches it with a fast byte scan).
func compile(q Query) (*regexp.Regexp, error) {
	if q.Pattern == "" {
		return nil, fmt.Errorf("pattern is empty")
	}
	expr := q.Pattern
	if !q.Regexp {
		expr = regexp.QuoteMeta(expr)
	}
	if q.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("pattern %q is not a valid Go regular expression: %w", q.Pattern, err)
	}
	return re, nil
}

type searcher struct {
	root  string
	q     Query
	re    *regexp.Regexp
	whole *regexp.Regexp // re for a whole file at once, or nil: split every file
	pre   *keyed         // a faster whole-file test than whole, when re holds a literal
	lit   *literal       // the pattern, when a case-sensitive literal: faster than regexp
	opts  Options
	limit int

	mu      sync.Mutex
	matches []Match
	files   int
	full    bool
}

func (s *searcher) run(ctx context.Context) (Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	paths := make(chan string, 256)
	var wg sync.WaitGroup
	// Reading files is mostly system calls, so more workers than cores
	// keep the cores busy while others wait on the kernel.
	for range 4 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			buf := make([]byte, 0, 64<<10) // one read buffer per worker, reused
			for rel := range paths {
				var full bool
				buf, full = s.searchFile(rel, buf)
				if full {
					cancel() // the limit is reached: stop walking
				}
			}
		})
	}
	walkErr := s.walk(ctx, paths)
	close(paths)
	wg.Wait()
	if walkErr != nil && ctx.Err() == nil {
		return Result{}, walkErr
	}
	if err := context.Cause(ctx); err != nil && !s.full {
		return Result{}, err
	}
	return s.result(), nil
}

// walk sends every candidate file to paths until ctx ends.
func (s *searcher) walk(ctx context.Context, paths chan<- string) error {
	return filepath.WalkDir(s.root, func(abs string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: skipped
		}
		rel, _ := filepath.Rel(s.root, abs)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (ignore.IsGitName(d.Name()) || s.ignored(rel, true)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || ignore.IsGitName(d.Name()) || s.ignored(rel, false) || !s.globMatch(rel) {
			return nil
		}
		select {
		case paths <- rel:
			return nil
		case <-ctx.Done():
			return filepath.SkipAll
		}
	})
}

func (s *searcher) ignored(rel string, dir bool) bool {
	return s.opts.Ignored != nil && s.opts.Ignored(rel, dir)
}

func (s *searcher) globMatch(rel string) bool {
	if s.q.Glob == "" {
		return true
	}
	if ok, _ := path.Match(s.q.Glob, rel); ok {
		return true
	}
	ok, _ := path.Match(s.q.Glob, path.Base(rel))
	return ok
}

// searchFile adds rel's matches and reports whether the limit is reached.
// It reads into buf and returns it, grown if it had to.
func (s *searcher) searchFile(rel string, buf []byte) ([]byte, bool) {
	data, err := readInto(filepath.Join(s.root, filepath.FromSlash(rel)), buf)
	if err != nil || bytes.IndexByte(data[:min(len(data), 8<<10)], 0) >= 0 {
		return data, s.count(nil)
	}
	switch { // most files: one pass, no line splitting
	case s.lit != nil:
	case s.pre != nil && !s.pre.match(data), s.pre == nil && s.whole != nil && !s.whole.Match(data):
		return data, s.count(nil)
	}
	return data, s.count(s.lines(rel, data))
}

// find returns the byte offset of the first match in line, or -1.
func (s *searcher) find(line []byte) int {
	if s.lit != nil {
		return s.lit.index(line)
	}
	if loc := s.re.FindIndex(line); loc != nil {
		return loc[0]
	}
	return -1
}

// lines returns the matching lines of data.
func (s *searcher) lines(rel string, data []byte) []Match {
	if s.lit != nil && !bytes.ContainsRune(s.lit.pat, '\n') {
		return s.literalLines(rel, data)
	}
	var found []Match
	line := 1
	for len(data) > 0 {
		end := bytes.IndexByte(data, '\n')
		if end < 0 {
			end = len(data)
		}
		text := data[:end]
		if s.q.Regexp && len(text) > 0 && text[len(text)-1] == '\r' {
			text = text[:len(text)-1] // $ ends a CRLF line before its CR
		}
		if at := s.find(text); at >= 0 {
			found = append(found, matchAt(rel, line, data[:end], at))
		}
		data = data[min(end+1, len(data)):]
		line++
	}
	return found
}

// literalLines finds a literal's lines by jumping from match to match over
// the whole file, counting the newlines in between, instead of testing
// every line: most lines of a file with a match do not match.
func (s *searcher) literalLines(rel string, data []byte) []Match {
	var found []Match
	line, lineStart, counted := 1, 0, 0
	for pos := 0; pos < len(data); {
		i := s.lit.index(data[pos:])
		if i < 0 {
			break
		}
		at := pos + i
		line += bytes.Count(data[counted:at], []byte{'\n'})
		counted = at
		if nl := bytes.LastIndexByte(data[:at], '\n'); nl >= 0 {
			lineStart = nl + 1
		} else {
			lineStart = 0
		}
		end := bytes.IndexByte(data[at:], '\n')
		if end < 0 {
			end = len(data) - at
		}
		found = append(found, matchAt(rel, line, data[lineStart:at+end], at-lineStart))
		pos = at + end + 1 // one match per line
	}
	return found
}

func matchAt(rel string, line int, text []byte, at int) Match {
	text = bytes.TrimRight(text, "\r")
	col := utf8.RuneCount(text[:min(at, len(text))]) + 1
	if len(text) > maxLineText {
		text = text[:maxLineText]
	}
	return Match{Path: rel, Line: line, Column: col, Text: string(bytes.ToValidUTF8(text, []byte("�")))}
}

// count records a file's matches and reports whether the limit is reached.
func (s *searcher) count(found []Match) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files++
	s.matches = append(s.matches, found...)
	if len(s.matches) > s.limit {
		s.full = true
	}
	return s.full
}

func (s *searcher) result() Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	sort.Slice(s.matches, func(i, j int) bool {
		a, b := s.matches[i], s.matches[j]
		return a.Path < b.Path || a.Path == b.Path && a.Line < b.Line
	})
	res := Result{Matches: s.matches, Files: s.files}
	if len(res.Matches) > s.limit {
		res.Matches, res.Truncated = res.Matches[:s.limit], true
	}
	if res.Matches == nil {
		res.Matches = []Match{}
	}
	return res
}
