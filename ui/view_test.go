package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func numberedText(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// gridLines returns the rows the view's grid holds now, as text.
func gridLines(v *fileView) []string {
	var lines []string
	for _, r := range v.grid.Rows {
		lines = append(lines, strings.TrimSpace(rowText(r)))
	}
	return lines
}

func TestFileViewShowsOnlyRowsInView(t *testing.T) {
	test.NewTempApp(t)
	v := newFileView(newSourceText(numberedText(5000)))
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(400, 300))
	rows := gridLines(v)
	if len(rows) == 0 || len(rows) > 40 || rows[0] != "1  line 1" {
		t.Fatalf("grid holds %d rows starting %q, want a screenful from line 1", len(rows), rows[:min(len(rows), 1)])
	}
}

func TestFileViewShowLine(t *testing.T) {
	tests := []struct {
		name       string
		line       int
		wantMark   int
		wantScroll bool
	}{
		{name: "far down", line: 2500, wantMark: 2500, wantScroll: true},
		{name: "in view", line: 3, wantMark: 3, wantScroll: false},
		{name: "past the end", line: 9000, wantMark: 5000, wantScroll: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test.NewTempApp(t)
			v := newFileView(newSourceText(numberedText(5000)))
			w := test.NewTempWindow(t, v)
			w.Resize(fyne.NewSize(400, 300))
			v.showLine(tt.line)
			if scrolled := v.scroll.Offset.Y > 0; scrolled != tt.wantScroll {
				t.Errorf("scrolled = %v (offset %v)", scrolled, v.scroll.Offset)
			}
			want := fmt.Sprintf("%d  line %d", tt.wantMark, tt.wantMark)
			for i, r := range v.grid.Rows {
				if strings.TrimSpace(rowText(r)) == want {
					if r.Style != v.styles.mark {
						t.Errorf("row %q is not marked", want)
					}
					pos := v.grid.Position().Y + float32(i)*v.cellSize().Height - v.scroll.Offset.Y
					if pos < 0 || pos >= v.scroll.Size().Height {
						t.Errorf("row %q is at y=%v, outside the view", want, pos)
					}
					return
				}
			}
			t.Errorf("no row %q in the grid: %q", want, gridLines(v))
		})
	}
}

func TestFileViewShowLineBeforeLayout(t *testing.T) {
	test.NewTempApp(t)
	v := newFileView(newSourceText(numberedText(1000)))
	v.showLine(700) // a new tab has no size yet
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(400, 300))
	if v.scroll.Offset.Y == 0 {
		t.Fatal("the view did not scroll to line 700 at its first layout")
	}
	found := false
	for _, l := range gridLines(v) {
		found = found || l == "700  line 700"
	}
	if !found {
		t.Errorf("line 700 not in view: %q", gridLines(v))
	}
}
