package review

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
)

var helloChange = changeset.FileChange{Path: "main.go", Action: changeset.ActionEdit, BaseExists: true,
	Base: mainGo, New: strings.Replace(mainGo, `"hi"`, `"hello"`, 1)}

// cellsText is the text of cells.
func cellsText(cells []widget.TextGridCell) string {
	var b strings.Builder
	for _, c := range cells {
		b.WriteRune(c.Rune)
	}
	return b.String()
}

// TestUnifiedRowsColourWordsAndSyntax: the changed word of a changed line
// has the strong tint, the rest of the line the light one, and Go keywords
// keep their syntax colour in the diff.
func TestUnifiedRowsColourWordsAndSyntax(t *testing.T) {
	test.NewTempApp(t)
	p := newPalette()
	hunks := changeset.Hunks(helloChange)
	if len(hunks) != 1 {
		t.Fatalf("%d hunks", len(hunks))
	}
	rows := unifiedRows(p, newFileSyntax(helloChange), hunks[0])
	var added, funcRow []widget.TextGridCell
	for _, r := range rows {
		switch text := cellsText(r.left); {
		case strings.Contains(text, `+    fmt.Println("hello")`):
			added = r.left[r.gutter:]
		case strings.Contains(text, "func main()"):
			funcRow = r.left[r.gutter:]
		}
	}
	if added == nil || funcRow == nil {
		t.Fatalf("rows lack the added line or the func line")
	}
	for i, c := range added {
		word := strings.Index(cellsText(added), "hello")
		want := p.added
		if i >= word && i < word+len("hello") {
			want = p.addedWord
		}
		if c.Style == nil || c.Style.BackgroundColor() != want {
			t.Fatalf("cell %d %q of the added line: background %v, want %v", i, c.Rune, c.Style, want)
		}
	}
	if s := funcRow[0].Style; s == nil || s.TextColor() != p.syntax[1] {
		t.Errorf("'func' in the diff is not coloured as a keyword: %v", s)
	}
}

// TestWrapRowsNeverCut: at any width, unified or side by side, every cell
// of every line is shown, no row is wider than the width, and a wrapped
// line continues under its text.
func TestWrapRowsNeverCut(t *testing.T) {
	test.NewTempApp(t)
	long := "package main\n\nvar s = \"" + strings.Repeat("abcdefghij", 30) + "\"\n"
	fc := changeset.FileChange{Path: "long.go", Action: changeset.ActionReplace, BaseExists: true, Base: "package main\n", New: long}
	p, syn := newPalette(), newFileSyntax(fc)
	h := changeset.Hunks(fc)[0]
	for _, tt := range []struct {
		name string
		rows []diffRow
	}{{"unified", unifiedRows(p, syn, h)}, {"side by side", sideRows(p, syn, h)}} {
		for _, cols := range []int{30, 80, 200} {
			t.Run(tt.name, func(t *testing.T) {
				out, _ := wrapRows(tt.rows, cols)
				var all strings.Builder
				for _, r := range out {
					if len(r.Cells) > cols {
						t.Fatalf("a row of %d cells at width %d", len(r.Cells), cols)
					}
					all.WriteString(strings.NewReplacer(" ", "", "│", "").Replace(cellsText(r.Cells)))
				}
				if want := strings.Repeat("abcdefghij", 30); !strings.Contains(all.String(), want) {
					t.Fatalf("at width %d the long line is cut:\n%s", cols, all.String())
				}
			})
		}
	}
}

// TestDiffMarksControlCharacters: a proposed line that would erase itself
// in a terminal, and a bidi override, show as visible signs in the diff.
func TestDiffMarksControlCharacters(t *testing.T) {
	test.NewTempApp(t)
	fc := changeset.FileChange{Path: "a\u202e.go", Action: changeset.ActionReplace, BaseExists: true,
		Base: "package a\n", New: "package a\n// ok\x1b[2K\rexec()\n"}
	var text []string
	for _, h := range changeset.Hunks(fc) {
		for _, r := range unifiedRows(newPalette(), newFileSyntax(fc), h) {
			text = append(text, cellsText(r.left))
		}
	}
	if !strings.Contains(strings.Join(text, "\n"), "+// ok␛[2K␍exec()") {
		t.Errorf("the hostile line is not marked: %q", text)
	}
	if !strings.Contains(fileText(fc), "a⟦U+202E⟧.go") {
		t.Errorf("the bidi override in the path is not marked: %q", fileText(fc))
	}
	warn := warningTexts(changeset.ChangeSet{Files: []changeset.FileChange{fc}})
	if len(warn) != 1 || !strings.Contains(warn[0], "Control or invisible characters") {
		t.Errorf("no warning above the diff: %q", warn)
	}
}

// TestReviewFlagsWhatRuns: a change to .trestle.json is flagged above the
// diffs and on its file.
func TestReviewFlagsWhatRuns(t *testing.T) {
	fc := changeset.FileChange{Path: ".trestle.json", Action: changeset.ActionReplace, BaseExists: true, Base: "{}\n", New: "{\"x\":1}\n"}
	warn := warningTexts(changeset.ChangeSet{Files: []changeset.FileChange{fc}})
	if len(warn) != 1 || !strings.Contains(warn[0], "Changes what runs: .trestle.json") {
		t.Errorf("warnings %q", warn)
	}
	if !strings.Contains(fileText(fc), "changes what runs") {
		t.Errorf("file label %q", fileText(fc))
	}
}

// TestDescriptionKeepsUnderscoresInWords: markdown like **calc_test.go**
// renders as "calc_test.go", not "calc_ test.go" (Fyne's renderer put a
// space where its parser split the word at the underscore); emphasis and
// code still render.
func TestDescriptionKeepsUnderscoresInWords(t *testing.T) {
	test.NewTempApp(t)
	tests := []struct{ name, md, want string }{
		{"bold file", "Adds **calc_test.go**.", "Adds calc_test.go."},
		{"plain words", "snake_case_name and x_1", "snake_case_name and x_1"},
		{"code", "`a_b` stays", "a_b stays"},
		{"emphasis still works", "an _emphasised_ word", "an emphasised word"},
		{"a control is still marked", "a\x1bb", "a␛b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := newDescription(tt.md).String(); got != tt.want {
				t.Fatalf("%q renders as %q, want %q", tt.md, got, tt.want)
			}
		})
	}
	// A link keeps its underscores in the text and in every part of its URL.
	r := newDescription("[the_docs](https://my_host.example/a_b?q_1=x_y#s_t)")
	for _, seg := range r.Segments {
		if l, ok := seg.(*widget.HyperlinkSegment); ok {
			if l.Text != "the_docs" || l.URL.String() != "https://my_host.example/a_b?q_1=x_y#s_t" {
				t.Fatalf("link %q to %q", l.Text, l.URL)
			}
			return
		}
	}
	t.Fatalf("no link in %q", r.String())
}

// TestDiffGridWrapsToItsWidth: the grid re-wraps when resized, so a
// narrower column gets more, shorter rows and a taller MinSize, and never
// asks for more width than a few cells.
func TestDiffGridWrapsToItsWidth(t *testing.T) {
	test.NewTempApp(t)
	fc := changeset.FileChange{Path: "a.go", Action: changeset.ActionReplace, BaseExists: true, Base: "package a\n",
		New: "package a\n\nvar s = \"" + strings.Repeat("x", 200) + "\"\n"}
	p, syn := newPalette(), newFileSyntax(fc)
	g := newDiffGridOf(unifiedRows(p, syn, changeset.Hunks(fc)[0]), 100)
	cell := diffCell()
	g.Resize(fyne.NewSize(cell.Width*200, 100))
	wide, wideH := len(g.grid.Rows), g.MinSize().Height
	g.Resize(fyne.NewSize(cell.Width*40, 100))
	narrow, narrowH := len(g.grid.Rows), g.MinSize().Height
	if narrow <= wide || narrowH <= wideH {
		t.Fatalf("at 200 cells %d rows (%v high), at 40 cells %d rows (%v high): no re-wrap", wide, wideH, narrow, narrowH)
	}
	for _, r := range g.grid.Rows {
		if len(r.Cells) > 40 {
			t.Fatalf("a row of %d cells in a 40-cell grid", len(r.Cells))
		}
	}
	if w := g.MinSize().Width; w > cell.Width*minDiffCols+1 {
		t.Errorf("MinSize width %v asks for more than %d cells", w, minDiffCols)
	}
}

// TestRemovedLinesAreStruckThrough: the text of a removed line, and only
// of removed lines, is struck through, without its numbers or its
// indentation, on every row it wraps to, unified and side by side (where
// it is the left side); the grid draws a line over each. A rejected hunk,
// drawn plain, strikes nothing.
func TestRemovedLinesAreStruckThrough(t *testing.T) {
	test.NewTempApp(t)
	long := strings.Repeat("abcdefghij", 8)
	fc := changeset.FileChange{Path: "x.go", Action: changeset.ActionReplace, BaseExists: true,
		Base: "package x\n\n\treturn 1\nvar s = \"" + long + "\"\n", New: "package x\n\n\treturn 2\n"}
	p, syn := newPalette(), newFileSyntax(fc)
	h := changeset.Hunks(fc)[0]
	for _, tt := range []struct {
		name string
		rows []diffRow
	}{{"unified", unifiedRows(p, syn, h)}, {"side by side", sideRows(p, syn, h)}} {
		t.Run(tt.name, func(t *testing.T) {
			out, strikes := wrapRows(tt.rows, 60)
			var struck strings.Builder
			for _, s := range strikes {
				text := cellsText(out[s.row].Cells[s.from:s.to])
				if strings.HasPrefix(text, " ") || strings.HasSuffix(text, " ") || strings.ContainsAny(text, "│-+") {
					t.Errorf("row %d strikes %q: more than the removed text", s.row, text)
				}
				if tt.name == "side by side" && s.to > (60-3)/2 {
					t.Errorf("row %d strikes into the new side (cells %d-%d)", s.row, s.from, s.to)
				}
				struck.WriteString(text)
			}
			if got, want := struck.String(), `return1vars="`+long+`"`; strings.ReplaceAll(got, " ", "") != want {
				t.Errorf("struck through %q, want the removed lines' text %q", got, want)
			}
			if len(strikes) < 3 {
				t.Errorf("%d strikes; the long removed line wraps and each of its rows is struck", len(strikes))
			}

			g := newDiffGridOf(tt.rows, 60)
			w := test.NewWindow(g)
			defer w.Close()
			lines := 0
			for _, o := range test.WidgetRenderer(g).Objects() {
				if _, ok := o.(*canvas.Line); ok {
					lines++
				}
			}
			if lines != len(g.strikes) || lines < len(strikes) {
				t.Errorf("the grid draws %d lines for %d strikes (%d at 60 columns)", lines, len(g.strikes), len(strikes))
			}
			if _, none := wrapRows(dimRows(p, tt.rows), 60); len(none) != 0 {
				t.Errorf("a rejected hunk strikes %d rows", len(none))
			}
		})
	}
}

// TestDescriptionKeepsLineBreaks: a description's line breaks stay line
// breaks, so paragraphs and lists render (they showed as "␊" signs,
// drawn "�"); a control character is still marked.
func TestDescriptionKeepsLineBreaks(t *testing.T) {
	test.NewTempApp(t)
	r := newDescription("Why:\r\n\n- one\n- two\n\nDone.")
	var texts []string
	lists := 0
	for _, seg := range r.Segments {
		switch s := seg.(type) {
		case *widget.ListSegment:
			lists++
			if len(s.Items) != 2 {
				t.Errorf("the list has %d items, want 2", len(s.Items))
			}
		case *widget.TextSegment:
			if s.Text != "" {
				texts = append(texts, s.Text)
			}
		}
	}
	if lists != 1 || !slices.Equal(texts, []string{"Why:", "Done."}) {
		t.Fatalf("%d lists, paragraphs %q", lists, texts)
	}
	if got := newDescription("a\x1bb").String(); got != "a␛b" {
		t.Errorf("a control character renders as %q", got)
	}
}
