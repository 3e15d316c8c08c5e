package editor

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2/widget"

	"trestle/app/textbuf"
)

func testStyles() rowStyles {
	st := rowStyles{gutter: &widget.CustomTextGridStyle{}, current: &widget.CustomTextGridStyle{}}
	for k := range st.kinds {
		if k != int(textbuf.Plain) {
			st.kinds[k] = &widget.CustomTextGridStyle{}
		}
		st.selected[k] = &widget.CustomTextGridStyle{}
	}
	return st
}

func TestBuildRowsText(t *testing.T) {
	var lines string
	for i := range 12 {
		lines += "line " + string(rune('a'+i)) + "\n"
	}
	buf := textbuf.New(lines + "\tx\té")
	tests := []struct {
		name string
		sp   span
		want []string
	}{
		{name: "top", sp: span{first: 0, count: 2, cols: 20}, want: []string{" 1  line a", " 2  line b"}},
		{name: "past the end", sp: span{first: 11, count: 5, cols: 20}, want: []string{"12  line l", "13      x   é"}},
		{name: "columns", sp: span{first: 1, count: 1, col: 2, cols: 3}, want: []string{" 2  ne "}},
		{name: "tabs cut", sp: span{first: 12, count: 1, col: 2, cols: 4}, want: []string{"13    x "}},
		{name: "nothing", sp: span{first: 20, count: 2, cols: 20}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := buildRows(rowSource{buf: buf, tabWidth: 4, caretLine: -1}, tt.sp, testStyles())
			var got []string
			for _, r := range rows {
				got = append(got, rowText(r))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("rows = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestBuildRowsStyles(t *testing.T) {
	buf := textbuf.New("package p // c\nvar s = \"é\"\n")
	hl := textbuf.NewHighlighter(buf.LineCount(), buf.Line)
	st := testStyles()
	sel := textbuf.Range{Start: textbuf.Pos{Line: 0, Col: 8}, End: textbuf.Pos{Line: 1, Col: 1}}
	rows := buildRows(rowSource{buf: buf, hl: hl, tabWidth: 4, caretLine: 1, sel: sel}, span{count: 2, cols: 40}, st)
	g := gutterWidth(buf.LineCount())
	tests := []struct {
		name      string
		row, cell int
		want      widget.TextGridStyle
	}{
		{name: "gutter", row: 0, cell: 0, want: st.gutter},
		{name: "keyword", row: 0, cell: g, want: st.kinds[textbuf.Keyword]},
		{name: "plain", row: 0, cell: g + 7, want: nil},
		{name: "selected plain", row: 0, cell: g + 8, want: st.selected[textbuf.Plain]},
		{name: "selected comment", row: 0, cell: g + 10, want: st.selected[textbuf.Comment]},
		{name: "selected line break", row: 0, cell: g + 14, want: st.selected[textbuf.Plain]},
		{name: "selected on the next line", row: 1, cell: g, want: st.selected[textbuf.Keyword]},
		{name: "after the selection", row: 1, cell: g + 1, want: st.kinds[textbuf.Keyword]},
		{name: "string", row: 1, cell: g + 9, want: st.kinds[textbuf.String]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rows[tt.row].Cells[tt.cell].Style; got != tt.want {
				t.Errorf("style of %q = %p, want %p", rows[tt.row].Cells[tt.cell].Rune, got, tt.want)
			}
		})
	}
	if rows[1].Style != nil {
		t.Error("the caret's line is highlighted while there is a selection")
	}
}
