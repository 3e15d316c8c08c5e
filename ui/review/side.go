package review

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
)

// sideWidth is how many characters of each side a side-by-side diff shows;
// longer lines are cut, the unified view shows them whole.
const sideWidth = 60

// sideRow is one row of a side-by-side diff: the old line on the left, the
// new on the right; a zero diffLine (kind diffNote, no text) is a gap.
type sideRow struct {
	left, right diffLine
	full        *diffLine // a header, hunk or note across both sides
}

// sideBySide pairs a unified diff's lines: context on both sides, each run
// of removals beside the additions that follow it. Plain logic, any goroutine.
func sideBySide(lines []diffLine) []sideRow {
	var rows []sideRow
	for i := 0; i < len(lines); {
		switch l := lines[i]; l.kind {
		case diffContext:
			rows = append(rows, sideRow{left: l, right: l})
			i++
		case diffDel, diffAdd:
			var dels, adds []diffLine
			for ; i < len(lines) && lines[i].kind == diffDel; i++ {
				dels = append(dels, lines[i])
			}
			for ; i < len(lines) && lines[i].kind == diffAdd; i++ {
				adds = append(adds, lines[i])
			}
			for j := range max(len(dels), len(adds)) {
				var r sideRow
				if j < len(dels) {
					r.left = dels[j]
				}
				if j < len(adds) {
					r.right = adds[j]
				}
				rows = append(rows, r)
			}
		default:
			rows = append(rows, sideRow{full: &lines[i]})
			i++
		}
	}
	return rows
}

// sideCells renders one side: its line number and text, padded or cut to
// sideWidth, in the style of its kind.
func sideCells(l diffLine, styles diffStyles) []widget.TextGridCell {
	cells := make([]widget.TextGridCell, sideWidth+6)
	if l == (diffLine{}) { // a gap: this side has no line here
		for i := range cells {
			cells[i].Rune = ' '
		}
		return cells
	}
	n := l.old
	if l.kind == diffAdd {
		n = l.new
	}
	runes := []rune(fmt.Sprintf("%5d %s", n, expandTabs(l.text)))
	for i := range cells {
		cells[i] = widget.TextGridCell{Rune: ' ', Style: styles[l.kind]}
		if i < len(runes) {
			cells[i].Rune = runes[i]
		}
	}
	return cells
}

// newSideGrid renders fc's diff side by side. Main goroutine only.
func newSideGrid(fc changeset.FileChange, styles diffStyles) *widget.TextGrid {
	g := widget.NewTextGrid()
	g.Scroll = fyne.ScrollNone
	rows := sideBySide(parseDiff(changeset.Diff(fc)))
	if len(rows) > maxDiffRows {
		rows = rows[:maxDiffRows]
	}
	for _, r := range rows {
		if r.full != nil {
			row := rowOf(r.full.format())
			row.Style = styles[r.full.kind]
			g.Rows = append(g.Rows, row)
			continue
		}
		cells := append(sideCells(r.left, styles), widget.TextGridCell{Rune: '│'}, widget.TextGridCell{Rune: ' '})
		g.Rows = append(g.Rows, widget.TextGridRow{Cells: append(cells, sideCells(r.right, styles)...)})
	}
	return g
}
