package quickopen

import (
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/sahilm/fuzzy"
)

// rankReference is Rank as it was before the prefilter, the incremental
// Ranker and the partial sort: two whole passes of fuzzy.Find over every
// candidate and a stable sort of every match. The tests compare Rank and
// Ranker with it.
func rankReference(pattern string, candidates []string, limit int) []Result {
	pattern = strings.ReplaceAll(pattern, " ", "")
	if pattern == "" {
		n := min(limit, len(candidates))
		out := make([]Result, n)
		for i := range n {
			out[i] = Result{Index: i, Name: candidates[i]}
		}
		return out
	}
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

// The benchmarks of rankReference are the baselines of BenchmarkRankGOROOT,
// BenchmarkRankGOROOTOneLetter and BenchmarkRankGOROOTTyping: the same
// work, done as Rank did it before.

func BenchmarkReferenceRankGOROOT(b *testing.B) {
	files := gorootFiles(b)
	b.ResetTimer()
	for b.Loop() {
		rankReference("httpsrv", files, 50)
	}
}

func BenchmarkReferenceRankGOROOTOneLetter(b *testing.B) {
	files := gorootFiles(b)
	b.ResetTimer()
	for b.Loop() {
		rankReference("s", files, 200)
	}
}

func BenchmarkReferenceRankGOROOTTyping(b *testing.B) {
	files := gorootFiles(b)
	const query = "nethttpserver.go"
	i := 0
	b.ResetTimer()
	for b.Loop() {
		i++
		rankReference(query[:i], files, 200)
		i %= len(query)
	}
}
