package textbuf

import (
	"slices"
	"testing"
)

func TestExpandTabs(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"\tx", 4, "    x"},
		{"ab\tc", 4, "ab  c"},
		{"abcd\te", 4, "abcd    e"},
		{"a\tb", 8, "a       b"},
		{"a\tb", 0, "a   b"},
		{"é\tb", 2, "é b"},
	}
	for _, tt := range tests {
		if got := string(ExpandTabs(nil, tt.in, tt.width)); got != tt.want {
			t.Errorf("ExpandTabs(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
		}
		if got := Cells(tt.in, tt.width); got != len([]rune(tt.want)) {
			t.Errorf("Cells(%q) = %d, want %d", tt.in, got, len([]rune(tt.want)))
		}
	}
}

func TestCellOfAndColAt(t *testing.T) {
	line := "a\tbé"
	cells := []int{0, 1, 4, 5, 6} // CellOf for cols 0..4
	for col, want := range cells {
		if got := CellOf(line, col, 4); got != want {
			t.Errorf("CellOf(%d) = %d, want %d", col, got, want)
		}
	}
	tests := []struct{ cell, col int }{
		{0, 0}, {1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {6, 4}, {40, 4},
	}
	for _, tt := range tests {
		if got := ColAt(line, tt.cell, 4); got != tt.col {
			t.Errorf("ColAt(cell %d) = %d, want %d", tt.cell, got, tt.col)
		}
	}
}

func TestWordAt(t *testing.T) {
	tests := []struct {
		name       string
		line       string
		col        int
		start, end int
	}{
		{name: "word", line: "foo.barBaz(x)", col: 5, start: 4, end: 10},
		{name: "punctuation", line: "foo.bar", col: 3, start: 3, end: 4},
		{name: "spaces", line: "a   b", col: 2, start: 1, end: 4},
		{name: "unicode", line: "x := héllo_世界 + 1", col: 7, start: 5, end: 13},
		{name: "past end", line: "ab cd", col: 9, start: 3, end: 5},
		{name: "empty", line: "", col: 0, start: 0, end: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if s, e := WordAt(tt.line, tt.col); s != tt.start || e != tt.end {
				t.Errorf("WordAt = %d,%d, want %d,%d", s, e, tt.start, tt.end)
			}
		})
	}
}

func TestFind(t *testing.T) {
	b := New("Foo foo\nnothing\nöFOO fooo")
	tests := []struct {
		name      string
		query     string
		matchCase bool
		want      []Range
	}{
		{name: "case", query: "foo", matchCase: true, want: []Range{{Pos{0, 4}, Pos{0, 7}}, {Pos{2, 5}, Pos{2, 8}}}},
		{name: "fold", query: "FOO", want: []Range{{Pos{0, 0}, Pos{0, 3}}, {Pos{0, 4}, Pos{0, 7}}, {Pos{2, 1}, Pos{2, 4}}, {Pos{2, 5}, Pos{2, 8}}}},
		{name: "empty", query: "", want: nil},
		{name: "newline", query: "a\nb", want: nil},
		{name: "unicode", query: "öf", want: []Range{{Pos{2, 0}, Pos{2, 2}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := b.Find(tt.query, tt.matchCase); !slices.Equal(got, tt.want) {
				t.Errorf("Find(%q) = %v, want %v", tt.query, got, tt.want)
			}
		})
	}
}
