package textbuf

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func spansOf(t *testing.T, src string) [][]Span {
	t.Helper()
	b := New(src)
	h := NewHighlighter(b.LineCount(), b.Line)
	out := make([][]Span, b.LineCount())
	for i := range out {
		out[i] = h.Spans(i)
	}
	return out
}

func TestHighlightKinds(t *testing.T) {
	src := "package main // c\nvar x = `raw\nstill` + \"s\" + 'r'\n/* a\nb */ y := 1.5e3"
	want := [][]Span{
		{{0, 7, Keyword}, {13, 17, Comment}},
		{{0, 3, Keyword}, {8, 12, String}},
		{{0, 6, String}, {9, 12, String}, {15, 18, String}},
		{{0, 4, Comment}},
		{{0, 4, Comment}, {10, 15, Number}},
	}
	got := spansOf(t, src)
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("line %d: spans %v, want %v", i, got[i], want[i])
		}
	}
}

func TestHighlightRuneColumns(t *testing.T) {
	got := spansOf(t, `s := "héllo" // 世界`)
	want := []Span{{5, 12, String}, {13, 18, Comment}}
	if !slices.Equal(got[0], want) {
		t.Errorf("spans %v, want %v", got[0], want)
	}
}

// TestHighlightAfterEditMatchesScratch edits Go source at random, updating
// a highlighter incrementally, and checks it against one built from scratch.
func TestHighlightAfterEditMatchesScratch(t *testing.T) {
	src := "package p\n\n/* doc\n */\nfunc f() string {\n\treturn `a\nb` + \"c\" // x\n}\n\nvar n = 0x1F\n"
	frags := []string{"/*", "*/", "`", "\"", "\n", "//", "x", "1", "func ", "'a'", "é"}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 1))
		b := New(src)
		h := NewHighlighter(b.LineCount(), b.Line)
		b.OnChange = func(c Change) { h.Apply(c, b.LineCount(), b.Line) }
		for step := range 30 {
			switch rng.IntN(4) {
			case 0:
				b.Delete(Range{randPos(rng, b), randPos(rng, b)})
			case 1:
				b.Undo()
			default:
				b.Insert(randPos(rng, b), frags[rng.IntN(len(frags))])
			}
			scratch := NewHighlighter(b.LineCount(), b.Line)
			for i := range b.LineCount() {
				if !slices.Equal(h.Spans(i), scratch.Spans(i)) {
					t.Fatalf("seed %d step %d line %d %q: incremental %v, scratch %v\n%s",
						seed, step, i, b.Line(i), h.Spans(i), scratch.Spans(i), b.Text())
				}
			}
		}
	}
}

func TestHighlightApplyStopsEarly(t *testing.T) {
	lines := make([]byte, 0, 10000)
	for range 1000 {
		lines = append(lines, "x := 1\n"...)
	}
	b := New(string(lines))
	h := NewHighlighter(b.LineCount(), b.Line)
	scanned := 0
	b.OnChange = func(c Change) { scanned = h.Apply(c, b.LineCount(), b.Line) }
	b.Insert(Pos{500, 0}, "y")
	if scanned != 1 {
		t.Errorf("a plain edit scanned %d lines, want 1", scanned)
	}
	b.Insert(Pos{500, 0}, "/*")
	if scanned < 500 {
		t.Errorf("opening a comment scanned %d lines, want the rest of the file", scanned)
	}
}
