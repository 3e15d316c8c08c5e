package review

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"trestle/app/changeset"
)

// TestHunkRendersAsGolden pins how one hunk renders, unified and side by
// side, in the test theme: the line numbers, markers, tints of changed
// lines and words, and Go colours (testdata/hunk_*.xml; a changed render
// is written to testdata/failed/ to compare, and to copy over the master
// once it is right).
func TestHunkRendersAsGolden(t *testing.T) {
	test.NewTempApp(t)
	fc := changeset.FileChange{Path: "x.go", Action: changeset.ActionReplace, BaseExists: true, Base: "return 1\n", New: "return 2\n"}
	h := changeset.Hunks(fc)[0]
	for _, tt := range []struct {
		name string
		rows func(*palette, fileSyntax, changeset.Hunk) []diffRow
	}{{"unified", unifiedRows}, {"side", sideRows}} {
		t.Run(tt.name, func(t *testing.T) {
			p := newPalette()
			g := newDiffGridOf(tt.rows(p, newFileSyntax(fc), h), 40)
			w := test.NewWindow(g)
			defer w.Close()
			w.Resize(fyne.NewSize(40*diffCell().Width+8, 2*diffCell().Height+8))
			test.AssertRendersToMarkup(t, "hunk_"+tt.name+".xml", w.Canvas())
		})
	}
}
