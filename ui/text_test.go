package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2/widget"
)

func TestNewSourceText(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		lines []string
		width int
	}{
		{name: "empty", text: "", lines: []string{""}, width: 0},
		{name: "final newline", text: "a\nbcd\n", lines: []string{"a", "bcd"}, width: 3},
		{name: "no final newline", text: "a\nb", lines: []string{"a", "b"}, width: 1},
		{name: "crlf", text: "ab\r\ncd\r\n", lines: []string{"ab", "cd"}, width: 2},
		{name: "tab counts to stop", text: "\tx\nab\tc", lines: []string{"\tx", "ab\tc"}, width: 5},
		{name: "runes not bytes", text: "héllo", lines: []string{"héllo"}, width: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSourceText(tt.text)
			if !slices.Equal(s.lines, tt.lines) || s.width != tt.width {
				t.Errorf("got %q width %d, want %q width %d", s.lines, s.width, tt.lines, tt.width)
			}
		})
	}
}

func TestExpandTabs(t *testing.T) {
	tests := []struct{ in, want string }{
		{"\tx", "    x"},
		{"ab\tc", "ab  c"},
		{"abcd\te", "abcd    e"},
		{"no tabs", "no tabs"},
	}
	for _, tt := range tests {
		if got := string(expandTabs(tt.in)); got != tt.want {
			t.Errorf("expandTabs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func rowText(r widget.TextGridRow) string {
	runes := make([]rune, len(r.Cells))
	for i, c := range r.Cells {
		runes[i] = c.Rune
	}
	return string(runes)
}

func TestBuildRows(t *testing.T) {
	var lines string
	for i := range 12 {
		lines += "line " + string(rune('a'+i)) + "\n"
	}
	s := newSourceText(lines)
	mark := &widget.CustomTextGridStyle{}
	st := rowStyles{gutter: &widget.CustomTextGridStyle{}, mark: mark}
	tests := []struct {
		name   string
		sp     span
		mark   int
		want   []string
		marked int // index in want of the marked row; -1 none
	}{
		{name: "top", sp: span{first: 0, count: 2, cols: 20}, want: []string{" 1  line a", " 2  line b"}, marked: -1},
		{name: "past the end", sp: span{first: 10, count: 5, cols: 20}, want: []string{"11  line k", "12  line l"}, marked: -1},
		{name: "columns", sp: span{first: 1, count: 1, col: 2, cols: 3}, want: []string{" 2  ne "}, marked: -1},
		{name: "mark", sp: span{first: 2, count: 2, cols: 20}, mark: 4, want: []string{" 3  line c", " 4  line d"}, marked: 1},
		{name: "nothing", sp: span{first: 20, count: 2, cols: 20}, want: nil, marked: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := buildRows(s, tt.sp, tt.mark, st)
			var got []string
			for i, r := range rows {
				got = append(got, rowText(r))
				if (r.Style == mark) != (i == tt.marked) {
					t.Errorf("row %d marked = %v", i, r.Style == mark)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("rows = %q, want %q", got, tt.want)
			}
		})
	}
}
