package review

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
)

func TestParseDiff(t *testing.T) {
	fc := changeset.FileChange{Path: "a.go", Action: changeset.ActionEdit, BaseExists: true,
		Base: "one\ntwo\nthree\nfour\n", New: "one\n2\nthree\nfour\nfive\n"}
	got := []string{}
	for _, l := range parseDiff(changeset.Diff(fc)) {
		got = append(got, l.format())
	}
	want := []string{
		"--- a/a.go",
		"+++ b/a.go",
		"@@ -1,4 +1,5 @@",
		"    1     1  one",
		"    2       -two",
		"          2 +2",
		"    3     3  three",
		"    4     4  four",
		"          5 +five",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("rows:\n%q\nwant\n%q", got, want)
	}
}

func TestParseDiffKinds(t *testing.T) {
	tests := []struct {
		name string
		diff string
		want []diffKind
	}{
		{"empty", "", nil},
		{"created", "--- /dev/null\n+++ b/n.go\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n",
			[]diffKind{diffHeader, diffHeader, diffHunk, diffAdd, diffNote}},
		{"deleted", "--- a/d.go\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n", []diffKind{diffHeader, diffHeader, diffHunk, diffDel}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []diffKind
			for _, l := range parseDiff(tt.diff) {
				got = append(got, l.kind)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("kinds %v, want %v", got, tt.want)
			}
		})
	}
}

func TestExpandTabs(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"none", "x := 1", "x := 1"},
		{"indent", "\t\tx", "        x"},
		{"align", "ab\tc", "ab  c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := expandTabs(tt.in); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDiffRowsAreCut(t *testing.T) {
	lines := make([]diffLine, maxDiffRows+7)
	rows := diffRows(lines, diffStyles{})
	if len(rows) != maxDiffRows+1 || diffRowString(rows[maxDiffRows]) != "… 7 more lines not shown" {
		t.Fatalf("%d rows, last %q", len(rows), diffRowString(rows[len(rows)-1]))
	}
}

// diffRowString is the text of one grid row.
func diffRowString(r widget.TextGridRow) string {
	runes := make([]rune, len(r.Cells))
	for i, c := range r.Cells {
		runes[i] = c.Rune
	}
	return string(runes)
}

// TestDiffMarksControlCharacters: a proposed line that would erase itself
// in a terminal, and a bidi override, show as visible signs in the diff.
func TestDiffMarksControlCharacters(t *testing.T) {
	fc := changeset.FileChange{Path: "a\u202e.go", Action: changeset.ActionReplace, BaseExists: true,
		Base: "package a\n", New: "package a\n// ok\x1b[2K\rexec()\n"}
	var rows []string
	for _, l := range parseDiff(changeset.Diff(fc)) {
		rows = append(rows, l.format())
	}
	if !slices.Contains(rows, "          2 +// ok␛[2K␍exec()") {
		t.Errorf("the hostile line is not marked: %q", rows)
	}
	if !slices.Contains(rows, "+++ b/a⟦U+202E⟧.go") {
		t.Errorf("the bidi override in the path is not marked: %q", rows)
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
