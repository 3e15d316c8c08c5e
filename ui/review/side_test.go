package review

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"trestle/app/changeset"
)

func TestSideBySidePairsRemovalsWithAdditions(t *testing.T) {
	diff := "--- a/x.go\n+++ b/x.go\n@@ -1,4 +1,4 @@\n a\n-b\n-c\n+B\n d\n+e\n"
	rows := sideBySide(parseDiff(diff))
	var got []string
	for _, r := range rows {
		if r.full != nil {
			got = append(got, "full:"+r.full.text)
			continue
		}
		got = append(got, r.left.text+"|"+r.right.text)
	}
	want := "full:--- a/x.go;full:+++ b/x.go;full:@@ -1,4 +1,4 @@;a|a;b|B;c|;d|d;|e"
	if strings.Join(got, ";") != want {
		t.Fatalf("got  %s\nwant %s", strings.Join(got, ";"), want)
	}
	if r := rows[4]; r.left.old != 2 || r.right.new != 2 {
		t.Fatalf("line numbers %d/%d, want 2/2", r.left.old, r.right.new)
	}
}

func TestSideGridShowsBothSides(t *testing.T) {
	test.NewTempApp(t)
	fc := changeset.FileChange{Path: "main.go", Action: changeset.ActionEdit, BaseExists: true,
		Base: "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
		New:  "package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n"}
	g := newSideGrid(fc, newDiffStyles())
	var text []string
	for _, r := range g.Rows {
		var b strings.Builder
		for _, c := range r.Cells {
			b.WriteRune(c.Rune)
		}
		text = append(text, strings.TrimRight(b.String(), " "))
	}
	joined := strings.Join(text, "\n")
	if !strings.Contains(joined, "println(\"hi\")") || !strings.Contains(joined, "println(\"hello\")") || !strings.Contains(joined, "│") {
		t.Fatalf("side-by-side rows:\n%s", joined)
	}
}
