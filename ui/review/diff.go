package review

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
	"trestle/app/textbuf"
)

// maxDiffRows bounds the rows one file's diff shows: a person reviews a few
// hundred lines, and a TextGrid without its own scrolling draws every row.
const maxDiffRows = 5000

// diffKind is what one line of a unified diff is.
type diffKind int

const (
	diffContext diffKind = iota // an unchanged line
	diffAdd                     // "+"
	diffDel                     // "-"
	diffHunk                    // "@@ -1,3 +1,4 @@"
	diffHeader                  // "--- a/x", "+++ b/x"
	diffNote                    // "\ No newline at end of file", "… more lines"
)

// diffLine is one line of a unified diff with its old and new line
// numbers (0 where it has none).
type diffLine struct {
	kind     diffKind
	old, new int
	text     string // without the leading marker for changes and context
}

// parseDiff splits a unified diff into lines, numbering them from the hunk
// headers. It is plain logic, safe on any goroutine.
func parseDiff(diff string) []diffLine {
	var out []diffLine
	old, new := 0, 0
	for _, s := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		if s == "" && diff == "" {
			break
		}
		s = changeset.MarkControls(s) // an escape or a bidi control shows as a sign
		l := diffLine{kind: diffContext}
		switch {
		case strings.HasPrefix(s, "--- ") || strings.HasPrefix(s, "+++ "):
			l.kind, l.text = diffHeader, s
		case strings.HasPrefix(s, "@@"):
			l.kind, l.text = diffHunk, s
			old, new = hunkStart(s)
		case strings.HasPrefix(s, `\`):
			l.kind, l.text = diffNote, s
		case strings.HasPrefix(s, "+"):
			l.kind, l.new, l.text = diffAdd, new, s[1:]
			new++
		case strings.HasPrefix(s, "-"):
			l.kind, l.old, l.text = diffDel, old, s[1:]
			old++
		default:
			l.old, l.new, l.text = old, new, strings.TrimPrefix(s, " ")
			old, new = old+1, new+1
		}
		out = append(out, l)
	}
	return out
}

// hunkStart reads the first old and new line numbers of "@@ -o,n +n,m @@".
func hunkStart(h string) (old, new int) {
	for _, f := range strings.Fields(h) {
		num, _, _ := strings.Cut(f[1:], ",")
		n, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		switch f[0] {
		case '-':
			old = n
		case '+':
			new = n
		}
	}
	return old, new
}

// format is the row text of l: old and new numbers, the marker, the text.
func (l diffLine) format() string {
	switch l.kind {
	case diffHeader, diffHunk, diffNote:
		return l.text
	}
	marker := map[diffKind]string{diffAdd: "+", diffDel: "-", diffContext: " "}[l.kind]
	return fmt.Sprintf("%5s %5s %s%s", lineNo(l.old, l.kind != diffAdd), lineNo(l.new, l.kind != diffDel), marker, expandTabs(l.text))
}

// diffTabWidth is the tab stop of diff text, as gofmt'd code is read.
const diffTabWidth = 4

// expandTabs replaces tabs with spaces to the next tab stop, counted from
// the start of the text, so indentation lines up under the line numbers.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	return string(textbuf.ExpandTabs(nil, s, diffTabWidth))
}

func lineNo(n int, has bool) string {
	if !has {
		return ""
	}
	return strconv.Itoa(n)
}

// diffStyles are the row styles of a diff: additions in the theme's
// success colour, removals in its error colour, headers dimmed.
type diffStyles map[diffKind]widget.TextGridStyle

// newDiffStyles reads the colours from the current theme. Main goroutine only.
func newDiffStyles() diffStyles {
	dim := &widget.CustomTextGridStyle{FGColor: theme.Color(theme.ColorNamePlaceHolder)}
	return diffStyles{
		diffAdd:    &widget.CustomTextGridStyle{FGColor: theme.Color(theme.ColorNameSuccess)},
		diffDel:    &widget.CustomTextGridStyle{FGColor: theme.Color(theme.ColorNameError)},
		diffHunk:   dim,
		diffHeader: &widget.CustomTextGridStyle{FGColor: theme.Color(theme.ColorNamePlaceHolder), TextStyle: fyne.TextStyle{Bold: true}},
		diffNote:   dim,
	}
}

// newDiffGrid renders fc's unified diff in a TextGrid without its own
// scrolling, one styled row per line, at most maxDiffRows. Main goroutine only.
func newDiffGrid(fc changeset.FileChange, styles diffStyles) *widget.TextGrid {
	g := widget.NewTextGrid()
	g.Scroll = fyne.ScrollNone
	g.Rows = diffRows(parseDiff(changeset.Diff(fc)), styles)
	return g
}

// diffRows turns lines into grid rows, cut at maxDiffRows with a note.
func diffRows(lines []diffLine, styles diffStyles) []widget.TextGridRow {
	if len(lines) == 0 {
		lines = []diffLine{{kind: diffNote, text: "(no textual change)"}}
	}
	if over := len(lines) - maxDiffRows; over > 0 {
		lines = append(lines[:maxDiffRows:maxDiffRows], diffLine{kind: diffNote, text: fmt.Sprintf("… %d more lines not shown", over)})
	}
	rows := make([]widget.TextGridRow, len(lines))
	for i, l := range lines {
		rows[i] = rowOf(l.format())
		rows[i].Style = styles[l.kind]
	}
	return rows
}

// show selects change set id for the detail, every file included. Main
// goroutine only.
func (v *View) show(id string) {
	i := v.index(id)
	if i < 0 || id == v.shown {
		return
	}
	v.shown, v.include = id, map[string]bool{}
	for _, f := range v.sets[i].Files {
		v.include[f.Path] = true // every file, as the checkboxes will start
	}
	v.setButtons(changeset.ChangeSet{}) // until the person can see the diffs
	v.loadDetail(v.sets[i])
}

// loadDetail reads set cs whole (lists hold no file bodies) off the main
// goroutine, then builds its detail if it is still the one shown. Main
// goroutine only.
func (v *View) loadDetail(cs changeset.ChangeSet) {
	id := cs.ID
	v.shownFP = setFingerprint(cs)
	v.async(func() {
		full, err := v.m.Full(id)
		fyne.Do(func() {
			switch {
			case v.shown != id:
			case err != nil:
				v.host.Notify("change sets: " + err.Error())
			default:
				v.build(full)
			}
		})
	})
}

// showNothing empties the detail and disables the buttons. Main goroutine only.
func (v *View) showNothing() {
	v.shown, v.shownFP, v.checks = "", "", nil
	v.list.UnselectAll()
	hint := "Select a change set to review its diffs."
	if len(v.sets) == 0 {
		hint = "No change sets yet: when an agent proposes changes, they wait here for you."
	}
	v.detail.Objects = []fyne.CanvasObject{container.NewCenter(widget.NewLabel(hint))}
	v.detail.Refresh()
	v.setButtons(changeset.ChangeSet{})
}

// build shows cs: its title, state and description, then for each file a
// checkbox to include it and its coloured diff. Checkboxes the person
// changed keep their value. Main goroutine only.
func (v *View) build(cs changeset.ChangeSet) {
	v.shownFP = setFingerprint(cs)
	title := widget.NewLabelWithStyle(changeset.MarkControls(cs.Title), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Wrapping = fyne.TextWrapWord
	meta := widget.NewLabel(metaText(cs))
	meta.Wrapping = fyne.TextWrapWord
	side := widget.NewCheck("Side by side", func(on bool) {
		if on != v.sideBySide {
			v.sideBySide = on
			v.build(cs)
		}
	})
	side.Checked = v.sideBySide
	body := container.NewVBox(title, meta)
	for _, w := range reviewWarnings(cs) {
		body.Add(w)
	}
	body.Add(side)
	if strings.TrimSpace(cs.Description) != "" {
		desc := widget.NewRichTextFromMarkdown(cs.Description)
		desc.Wrapping = fyne.TextWrapWord
		body.Add(desc)
	}
	styles := newDiffStyles()
	v.checks = make(map[string]*widget.Check, len(cs.Files))
	for _, f := range cs.Files {
		body.Add(widget.NewSeparator())
		body.Add(v.fileCheck(cs, f))
		if v.sideBySide {
			body.Add(newSideGrid(f, styles))
		} else {
			body.Add(newDiffGrid(f, styles))
		}
	}
	v.detail.Objects = []fyne.CanvasObject{container.NewScroll(body)}
	v.detail.Refresh()
	v.setButtons(cs)
}

// fileCheck is the checkbox that includes f in an apply.
func (v *View) fileCheck(cs changeset.ChangeSet, f changeset.FileChange) *widget.Check {
	path := f.Path
	on, ok := v.include[path]
	if !ok {
		on = true
		v.include[path] = on
	}
	c := widget.NewCheck(fileText(f), func(b bool) { v.include[path] = b })
	c.Checked = on
	if !cs.Undecided() {
		c.Disable()
	}
	v.checks[path] = c
	return c
}

// reviewWarnings are the labels, in the theme's danger colour, that a
// review shows above the diffs: that the set changes what runs, that
// some text holds invisible or control characters. Main goroutine only.
func reviewWarnings(cs changeset.ChangeSet) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, text := range warningTexts(cs) {
		l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		l.Importance = widget.DangerImportance
		l.Wrapping = fyne.TextWrapWord
		out = append(out, l)
	}
	return out
}

// warningTexts are the warnings of reviewWarnings, as plain text.
func warningTexts(cs changeset.ChangeSet) []string {
	var out []string
	if runs := cs.RunsWhat(); len(runs) > 0 {
		out = append(out, "⚠ Changes what runs: "+strings.Join(runs, ", ")+" — its tasks and environment become commands at the next build, test, run or evaluation.")
	}
	hidden := changeset.HasHiddenText(cs.Title)
	for _, f := range cs.Files {
		hidden = hidden || changeset.HasHiddenText(f.Path) || changeset.HasHiddenText(f.New) || changeset.HasHiddenText(f.Base)
	}
	if hidden {
		out = append(out, "⚠ Control or invisible characters: shown as ␛, ␍ or ⟦U+202E⟧ in the title and diffs; in a terminal they could make text show as something else.")
	}
	return out
}

// metaText is the line under a change set's title.
func metaText(cs changeset.ChangeSet) string {
	added, removed := cs.Stats()
	client := cs.Client
	if client == "" {
		client = "unknown client"
	}
	s := fmt.Sprintf("%s · %s · proposed by %s %s · %d files, +%d −%d", cs.ID, stateText(cs.State), client,
		changeset.Age(time.Since(cs.Created)), len(cs.Files), added, removed)
	if cs.Reason != "" {
		s += " · reason: " + changeset.MarkControls(cs.Reason)
	}
	if n := len(cs.History); n > 0 {
		s += " · " + cs.History[n-1].What
	}
	return s
}

// fileText is a file's checkbox label: action, path, stats and, when not
// pending, its state and why.
func fileText(f changeset.FileChange) string {
	s := fmt.Sprintf("%s %s  +%d −%d", f.Action, changeset.MarkControls(f.Path), f.Added, f.Removed)
	if f.ChangesWhatRuns() {
		s += "  ⚠ changes what runs"
	}
	if f.State != changeset.StatePending {
		s += "  [" + stateText(f.State) + "]"
	}
	if f.Detail != "" {
		s += " " + f.Detail
	}
	return s
}

// NewDiffGrid renders fc's unified diff in a TextGrid without its own
// scrolling, coloured from the current theme. Main goroutine only.
func NewDiffGrid(fc changeset.FileChange) *widget.TextGrid {
	return newDiffGrid(fc, newDiffStyles())
}

// diffTabStop is how wide a tab is in a grid row built by rowOf.
const diffTabStop = 4

// rowOf is a line as grid cells, tabs expanded to spaces: TextGrid expects
// a tab's padding cells after it and would otherwise draw over the runes
// that follow.
func rowOf(line string) widget.TextGridRow {
	line = strings.TrimRight(line, "\r")
	runes := textbuf.ExpandTabs(nil, line, diffTabStop)
	cells := make([]widget.TextGridCell, len(runes))
	for i, r := range runes {
		cells[i] = widget.TextGridCell{Rune: r}
	}
	return widget.TextGridRow{Cells: cells}
}
