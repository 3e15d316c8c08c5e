package textbuf

import (
	"slices"
	"testing"
	"time"
)

// typeLine types s rune by rune as the editor does (TypeRune, then Type),
// with Enter for "\n", and returns the caret.
func typeLine(b *Buffer, at Pos, s string) Pos {
	for _, r := range s {
		var t Typed
		if r == '\n' {
			t = b.Newline(Range{Start: at, End: at})
		} else {
			t = b.TypeRune(Range{Start: at, End: at}, r)
		}
		b.Type(t)
		at = t.Caret
	}
	return at
}

func TestUndoTakesBackATypedLineAtOnce(t *testing.T) {
	now := time.Unix(0, 0)
	b := New("package p\n\nfunc f() {\n}\n")
	b.Now = func() time.Time { now = now.Add(80 * time.Millisecond); return now }
	at := Pos{Line: 2, Col: 10}
	at = typeLine(b, at, "\nvar _ int = \"not an int\"")
	if got := b.Line(3); got != "\tvar _ int = \"not an int\"" {
		t.Fatalf("typed line %q", got)
	}
	typeLine(b, at, "\nx := f(a[1], `b`)")
	if got := b.Line(4); got != "\tx := f(a[1], `b`)" {
		t.Fatalf("second typed line %q", got)
	}
	b.Undo()
	if got := b.Text(); got != "package p\n\nfunc f() {\n\tvar _ int = \"not an int\"\n}\n" {
		t.Fatalf("one Undo left:\n%s", got)
	}
	b.Undo()
	if got := b.Text(); got != "package p\n\nfunc f() {\n}\n" {
		t.Fatalf("a second Undo left:\n%s", got)
	}
	if b.Modified() {
		t.Error("undone to the start, the text is still modified")
	}
	b.Redo()
	b.Redo()
	if got := b.Line(4); got != "\tx := f(a[1], `b`)" {
		t.Errorf("after two Redos line 5 is %q", got)
	}
}

func TestTypingAfterAPauseIsItsOwnUndoStep(t *testing.T) {
	now := time.Unix(0, 0)
	b := New("")
	b.Now = func() time.Time { return now }
	at := typeLine(b, Pos{}, "ab")
	now = now.Add(2 * typingPause)
	typeLine(b, at, "cd")
	b.Undo()
	if got := b.Text(); got != "ab" {
		t.Errorf("Undo after a pause left %q, want ab", got)
	}
}

func TestWordMoves(t *testing.T) {
	line := "\tfoo.Bar(x,  yy) // c"
	tests := []struct {
		name      string
		col, want int
		right     bool
	}{
		{"right from the indent", 0, 4, true},
		{"right over the dot", 4, 5, true},
		{"right over a word", 5, 8, true},
		{"right skips spaces", 11, 15, true},
		{"left to the word start", 8, 5, false},
		{"left skips spaces", 13, 10, false},
		{"left over punctuation", 10, 9, false},
		{"left to the line start", 1, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			move := WordLeft
			if tc.right {
				move = WordRight
			}
			if got, ok := move(line, tc.col); !ok || got != tc.want {
				t.Errorf("from %d: %d, %v; want %d", tc.col, got, ok, tc.want)
			}
		})
	}
	if _, ok := WordLeft(line, 0); ok {
		t.Error("WordLeft at column 0 stayed on the line")
	}
	if _, ok := WordRight(line, len([]rune(line))); ok {
		t.Error("WordRight at the end stayed on the line")
	}
}

func TestToggleComment(t *testing.T) {
	tests := []struct {
		name     string
		in, want []string
	}{
		{"comments at the smallest indent", []string{"\tif x {", "", "\t\ty()", "\t}"}, []string{"\t// if x {", "", "\t// \ty()", "\t// }"}},
		{"uncomments", []string{"\t// if x {", "\t//\ty()"}, []string{"\tif x {", "\t\ty()"}},
		{"a mix comments", []string{"// a", "b"}, []string{"// // a", "// b"}},
		{"blank only", []string{"", "  "}, []string{"", "  "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ToggleComment(tc.in, "//"); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestLineRange(t *testing.T) {
	b := New("a\nb\nc")
	for _, tc := range []struct {
		first, last int
		want        string
	}{{0, 0, "a\n"}, {1, 1, "b\n"}, {2, 2, "\nc"}, {0, 2, "a\nb\nc"}} {
		if got := b.Slice(b.LineRange(tc.first, tc.last)); got != tc.want {
			t.Errorf("LineRange(%d, %d) holds %q, want %q", tc.first, tc.last, got, tc.want)
		}
	}
}
