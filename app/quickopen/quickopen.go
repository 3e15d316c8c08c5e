package quickopen

import (
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Result is one ranked name: its index in the candidates, the name and the
// byte offsets of the matched characters (for highlighting).
type Result struct {
	Index   int
	Name    string
	Matched []int
	score   int
}

// baseBonus is added when every character of the pattern matches inside
// the base name: "calc" should put calc/calc.go before cmd/alc/client.go.
const baseBonus = 40

// ParseQuery splits a Go to File query into the name pattern and a line:
// "calc.go:12" is ("calc.go", 12); without a valid ":N" the line is 0. A
// query of only ":N" is ("", N), a jump in the active file.
func ParseQuery(q string) (pattern string, line int) {
	q = strings.TrimSpace(q)
	i := strings.LastIndexByte(q, ':')
	if i < 0 {
		return q, 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(q[i+1:]))
	if err != nil || n <= 0 {
		return q, 0
	}
	return strings.TrimSpace(q[:i]), n
}

// Rank returns at most limit candidates that pattern matches, best first.
// An empty pattern returns the first limit candidates in their order.
// Spaces in the pattern are ignored, so "app eval" finds app/eval/x.go.
// It is safe for concurrent use; a finder that ranks one list keystroke
// by keystroke should use a Ranker, which reuses the last keystroke's matches.
func Rank(pattern string, candidates []string, limit int) []Result {
	return NewRanker(candidates).Rank(pattern, limit)
}

// Ranker ranks one list of candidates query after query, as a person types:
// when the new pattern holds the last one's characters in order ("http"
// after "htp"), only the last one's matches can match, and only they are
// scored again. The results are Rank's. A Ranker is not safe for
// concurrent use.
type Ranker struct {
	candidates []string
	last       string   // the last pattern ranked, spaces removed; "" for none
	matched    []scored // the candidates the last pattern matches, in their order
	spare      []scored // a buffer for the next matches
}

// scored is a candidate that matches, by its index, and its score.
type scored struct {
	index, score int32
}

// NewRanker returns a Ranker over candidates, which it keeps (and does not
// change): give a new Ranker for a new list.
func NewRanker(candidates []string) *Ranker {
	return &Ranker{candidates: candidates}
}

// Rank is Rank(pattern, candidates, limit) for the Ranker's candidates.
func (r *Ranker) Rank(pattern string, limit int) []Result {
	pattern = strings.ReplaceAll(pattern, " ", "")
	if pattern == "" {
		n := min(limit, len(r.candidates))
		out := make([]Result, n)
		for i := range n {
			out[i] = Result{Index: i, Name: r.candidates[i]}
		}
		return out
	}
	reuse := r.last != "" && inOrder(r.last, pattern)
	all := match(pattern, r.candidates, r.matched, reuse, r.spare[:0])
	r.last, r.matched, r.spare = pattern, all, r.matched
	top := best(all, r.candidates, limit)
	out := make([]Result, len(top))
	for i, m := range top {
		out[i] = Result{Index: int(m.index), Name: r.candidates[m.index], score: int(m.score)}
	}
	withMatched(pattern, out)
	return out
}

// match scores pattern against the candidates, or only those in within
// when onlyWithin is set, and appends every match to out in the order of
// the candidates. A name scores twice: as a whole path and, when the
// pattern matches inside it, as a base name alone, so that "strings.go"
// ranks strings/strings.go above strings/iter.go (the library matches
// greedily from the left, into the folder). The matched offsets wait for
// the few results shown (withMatched).
func match(pattern string, candidates []string, within []scored, onlyWithin bool, out []scored) []scored {
	folded, ascii := foldASCII(pattern)
	m := matcher{pattern, folded, ascii, candidates, within, onlyWithin}
	n := len(candidates)
	if onlyWithin {
		n = len(within)
	}
	parts := min(runtime.GOMAXPROCS(0), n/parallelMin)
	if parts <= 1 {
		return m.scan(0, n, out)
	}
	outs := make([][]scored, parts)
	var wg sync.WaitGroup
	for k := range parts {
		wg.Go(func() { outs[k] = m.scan(k*n/parts, (k+1)*n/parts, nil) })
	}
	wg.Wait()
	for _, o := range outs {
		out = append(out, o...)
	}
	return out
}

// parallelMin is the fewest names worth a goroutine of their own. Split
// over two goroutines, one letter over GOROOT/src's 11.5k files took 11.5 ms
// instead of 15.6 ms (medians of 15 runs, two cores at load average 15,
// where each thread gets its share; before scoreLetter); on an idle machine
// the two halves run side by side.
const parallelMin = 2048

// matcher scores one pattern against candidates, or those in within when
// onlyWithin is set; it is read only, so goroutines share it.
type matcher struct {
	pattern    string
	folded     []byte // the pattern in lower case, if ascii
	ascii      bool
	candidates []string
	within     []scored
	onlyWithin bool
}

// scan appends to out the matches among the names at positions lo to hi
// (of the candidates, or of within).
func (m matcher) scan(lo, hi int, out []scored) []scored {
	for p := lo; p < hi; p++ {
		i := p
		if m.onlyWithin {
			i = int(m.within[p].index)
		}
		name := m.candidates[i]
		if m.ascii && !mayMatch(name, m.folded) {
			continue
		}
		score, ok := scoreOf(m.pattern, m.folded, m.ascii, name)
		if !ok {
			continue
		}
		if b, ok := scoreOf(m.pattern, m.folded, m.ascii, path.Base(name)); ok {
			score += b + baseBonus
		}
		out = append(out, scored{int32(i), int32(score)})
	}
	return out
}

// scoreOf is the library's score of pattern for s: over bytes when both
// are ASCII, else the library's own.
func scoreOf(pattern string, folded []byte, ascii bool, s string) (int, bool) {
	if ascii {
		if score, ok, decided := scoreASCII(folded, s, nil); decided {
			return score, ok
		}
	}
	score, _, ok := scoreLibrary(pattern, s)
	return score, ok
}

// withMatched sets the matched offsets of the results: those in the base
// name when the pattern matches there, else those in the whole path.
func withMatched(pattern string, results []Result) {
	folded, ascii := foldASCII(pattern)
	offsets := func(s string) ([]int, bool) {
		if ascii {
			var m []int
			if _, ok, decided := scoreASCII(folded, s, &m); decided {
				return m, ok
			}
		}
		_, m, ok := scoreLibrary(pattern, s)
		return m, ok
	}
	for i := range results {
		r := &results[i]
		base := path.Base(r.Name)
		if m, ok := offsets(base); ok {
			for j := range m {
				m[j] += len(r.Name) - len(base)
			}
			r.Matched = m
		} else {
			r.Matched, _ = offsets(r.Name)
		}
	}
}

// foldASCII returns pattern in lower case if it is all ASCII; ok is false
// otherwise (then no candidate is left out before the library scores it).
func foldASCII(pattern string) (folded []byte, ok bool) {
	folded = make([]byte, len(pattern))
	for i := range len(pattern) {
		c := pattern[i]
		if c >= utf8.RuneSelf {
			return nil, false
		}
		folded[i] = lower(c)
	}
	return folded, true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// mayMatch reports whether the folded ASCII pattern occurs in s in order,
// ignoring case, as the library matches. At the first byte of s past ASCII
// it answers true: Unicode folds some letters onto ASCII ones (the Kelvin
// sign onto k), so there the library decides.
func mayMatch(s string, folded []byte) bool {
	j := 0
	for i := range len(s) {
		c := s[i]
		if c >= utf8.RuneSelf {
			return true
		}
		if lower(c) == folded[j] {
			j++
			if j == len(folded) {
				return true
			}
		}
	}
	return false
}

// inOrder reports whether the runes of a occur in b in order: then every
// name b matches, a matches too.
func inOrder(a, b string) bool {
	want := []rune(a) // as the library reads a pattern
	i := 0
	for _, r := range b {
		if i < len(want) && r == want[i] {
			i++
		}
	}
	return i == len(want)
}

// best returns the first limit matches, best first: by score, then the
// shorter name, then by name, then by index. When there are many more
// matches than limit, a heap of the best limit seen keeps the cost near
// one comparison a match. all is left as it was.
func best(all []scored, names []string, limit int) []scored {
	if limit <= 0 {
		return nil
	}
	cmp := func(a, b scored) int { return compare(a, b, names) }
	if len(all) <= 2*limit {
		top := slices.Clone(all)
		slices.SortFunc(top, cmp)
		return top[:min(limit, len(top))]
	}
	h := slices.Clone(all[:limit]) // a heap with the worst kept match on top
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(h, i, names)
	}
	for _, m := range all[limit:] {
		if compare(m, h[0], names) < 0 {
			h[0] = m
			down(h, 0, names)
		}
	}
	slices.SortFunc(h, cmp)
	return h
}

// down restores the heap below i: each match no better than its children.
func down(h []scored, i int, names []string) {
	for {
		worst := i
		if c := 2*i + 1; c < len(h) && compare(h[c], h[worst], names) > 0 {
			worst = c
		}
		if c := 2*i + 2; c < len(h) && compare(h[c], h[worst], names) > 0 {
			worst = c
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

// compare orders matches best first.
func compare(a, b scored, names []string) int {
	if a.score != b.score {
		return int(b.score - a.score)
	}
	an, bn := names[a.index], names[b.index]
	switch {
	case len(an) != len(bn):
		return len(an) - len(bn)
	case an != bn:
		return strings.Compare(an, bn)
	}
	return int(a.index - b.index)
}
