package quickopen

import (
	"path"
	"sort"
	"strconv"
	"strings"

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
func Rank(pattern string, candidates []string, limit int) []Result {
	pattern = strings.ReplaceAll(pattern, " ", "")
	if pattern == "" {
		n := min(limit, len(candidates))
		out := make([]Result, n)
		for i := range n {
			out[i] = Result{Index: i, Name: candidates[i]}
		}
		return out
	}
	// Two passes: over the whole paths, and over the base names alone, so
	// that "strings.go" ranks strings/strings.go above strings/iter.go
	// (the library matches greedily from the left, into the folder).
	bases := make([]string, len(candidates))
	for i, c := range candidates {
		bases[i] = path.Base(c)
	}
	inBase := make(map[int]fuzzy.Match)
	for _, m := range fuzzy.Find(pattern, bases) {
		inBase[m.Index] = m
	}
	matches := fuzzy.Find(pattern, candidates)
	out := make([]Result, len(matches))
	for i, m := range matches {
		out[i] = Result{Index: m.Index, Name: m.Str, Matched: m.MatchedIndexes, score: m.Score}
		if b, ok := inBase[m.Index]; ok {
			offset := len(m.Str) - len(bases[m.Index])
			out[i].score += b.Score + baseBonus
			out[i].Matched = make([]int, len(b.MatchedIndexes))
			for j, k := range b.MatchedIndexes {
				out[i].Matched[j] = k + offset
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		if len(out[i].Name) != len(out[j].Name) {
			return len(out[i].Name) < len(out[j].Name)
		}
		return out[i].Name < out[j].Name
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}
