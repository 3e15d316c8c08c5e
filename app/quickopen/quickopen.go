package quickopen

import (
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sahilm/fuzzy"
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
	last       string  // the last pattern ranked, spaces removed; "" for none
	matched    []int32 // the indexes of the candidates last matches, ascending
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
	all := match(pattern, r.candidates, r.matched, reuse)
	r.last = pattern
	r.matched = r.matched[:0]
	for _, m := range all {
		r.matched = append(r.matched, int32(m.Index))
	}
	return best(all, limit)
}

// match scores pattern against the candidates, or only those whose
// indexes are in within when onlyWithin is set, and returns every match in
// the order of the candidates. Two passes: over the whole paths, and over
// the base names alone, so that "strings.go" ranks strings/strings.go above
// strings/iter.go (the library matches greedily from the left, into the
// folder). A candidate the pattern's bytes do not occur in, in order, is
// left out before the library scores it.
func match(pattern string, candidates []string, within []int32, onlyWithin bool) []Result {
	folded, ascii := foldASCII(pattern)
	var maybe []int32
	consider := func(i int32) {
		if !ascii || mayMatch(candidates[i], folded) {
			maybe = append(maybe, i)
		}
	}
	if onlyWithin {
		for _, i := range within {
			consider(i)
		}
	} else {
		for i := range candidates {
			consider(int32(i))
		}
	}
	matches := fuzzy.FindFromNoSort(pattern, subset{candidates, maybe})
	out := make([]Result, len(matches))
	inBase := make([]int32, 0, len(matches)) // positions in out
	for i, m := range matches {
		out[i] = Result{Index: int(maybe[m.Index]), Name: m.Str, Matched: m.MatchedIndexes, score: m.Score}
		if !ascii || mayMatch(path.Base(m.Str), folded) {
			inBase = append(inBase, int32(i))
		}
	}
	for _, b := range fuzzy.FindFromNoSort(pattern, bases{out, inBase}) {
		r := &out[inBase[b.Index]]
		offset := len(r.Name) - len(b.Str)
		r.score += b.Score + baseBonus
		r.Matched = b.MatchedIndexes
		for j := range r.Matched {
			r.Matched[j] += offset
		}
	}
	return out
}

// subset is the candidates at the indexes idx, as the library's Source.
type subset struct {
	all []string
	idx []int32
}

func (s subset) String(i int) string { return s.all[s.idx[i]] }
func (s subset) Len() int            { return len(s.idx) }

// bases is the base names of the results at the positions idx.
type bases struct {
	results []Result
	idx     []int32
}

func (b bases) String(i int) string { return path.Base(b.results[b.idx[i]].Name) }
func (b bases) Len() int            { return len(b.idx) }

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

// best returns the first limit results, best first: by score, then the
// shorter name, then by name, then by index. When there are many more
// results than limit, a heap of the best limit seen keeps the cost near
// one comparison a result.
func best(all []Result, limit int) []Result {
	if limit <= 0 {
		return nil
	}
	if len(all) <= 2*limit {
		slices.SortFunc(all, compare)
		return all[:min(limit, len(all))]
	}
	h := slices.Clone(all[:limit]) // a heap with the worst kept result on top
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(h, i)
	}
	for _, r := range all[limit:] {
		if compare(r, h[0]) < 0 {
			h[0] = r
			down(h, 0)
		}
	}
	slices.SortFunc(h, compare)
	return h
}

// down restores the heap below i: each result no better than its children.
func down(h []Result, i int) {
	for {
		worst := i
		if c := 2*i + 1; c < len(h) && compare(h[c], h[worst]) > 0 {
			worst = c
		}
		if c := 2*i + 2; c < len(h) && compare(h[c], h[worst]) > 0 {
			worst = c
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

// compare orders results best first.
func compare(a, b Result) int {
	switch {
	case a.score != b.score:
		return b.score - a.score
	case len(a.Name) != len(b.Name):
		return len(a.Name) - len(b.Name)
	case a.Name != b.Name:
		return strings.Compare(a.Name, b.Name)
	}
	return a.Index - b.Index
}
