package quickopen

import (
	"fmt"
	"path"
	"reflect"
	"testing"

	"github.com/sahilm/fuzzy"
)

// TestScoreASCIISameAsLibrary scores every file of GOROOT/src, whole and
// base name, with scoreASCII and with the library for a few queries:
// the same verdict, score and matched offsets, or no verdict (a name past
// ASCII, which the library then scores itself).
func TestScoreASCIISameAsLibrary(t *testing.T) {
	files := append(gorootFiles(t), unicodeNames...)
	var names []string
	for _, f := range files {
		names = append(names, f, path.Base(f))
	}
	for _, q := range []string{"s", "httpsrv", "nethttpserver.go", "TEST", "json decode", "sTrInGs/"} {
		folded, _ := foldASCII(q)
		want := map[int]fuzzy.Match{}
		for _, m := range fuzzy.FindNoSort(q, names) {
			want[m.Index] = m
		}
		for i, name := range names {
			assertScoreSame(t, q, folded, name, want[i], want[i].Str != "")
		}
	}
}

// FuzzScoreASCII compares scoreASCII with the library on any pattern and
// name.
func FuzzScoreASCII(f *testing.F) {
	for _, q := range rankQueries {
		f.Add(q, "net/http/server.go")
	}
	f.Add("ab", "aXbAB_b")
	f.Add("tk", "The Black Knight")
	f.Add("aaa", "a/aa/aAa.a")
	f.Add("sv", "src/SrvServe_v.go")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		folded, ascii := foldASCII(pattern)
		if !ascii || pattern == "" {
			t.Skip()
		}
		m := fuzzy.FindNoSort(pattern, []string{name})
		var want fuzzy.Match
		if len(m) == 1 {
			want = m[0]
		}
		assertScoreSame(t, pattern, folded, name, want, len(m) == 1)
	})
}

func assertScoreSame(t *testing.T, pattern string, folded []byte, name string, want fuzzy.Match, wantOK bool) {
	t.Helper()
	var matched []int
	score, ok, decided := scoreASCII(folded, name, &matched)
	if !decided {
		return
	}
	got := fmt.Sprintf("match %v, score %d, offsets %v", ok, score, matched)
	if ok != wantOK || ok && (score != want.Score || !reflect.DeepEqual(matched, want.MatchedIndexes)) {
		t.Fatalf("scoreASCII(%q, %q): %s; the library: match %v, score %d, offsets %v", pattern, name, got, wantOK, want.Score, want.MatchedIndexes)
	}
}
