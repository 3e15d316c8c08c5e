package review

import (
	"fmt"
	"maps"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
)

// Layouts of a review's diffs.
const (
	layoutUnified = "Unified"
	layoutSide    = "Side by side"
)

// reviewTab is one change set open for review in the editor area: its
// header and buttons, the file list on the left and the selected file's
// hunks, each with Accept and Reject, on the right. Main goroutine only.
type reviewTab struct {
	v    *View
	id   string
	cs   changeset.ChangeSet // whole, as last read from the store
	fp   string              // cs's fingerprint when built
	item *container.TabItem

	header  *fyne.Container
	files   *widget.List
	history *widget.Label
	about   *fyne.Container // the description, above the history
	body    *fyne.Container
	file    int // the file shown in body

	hunks    map[string][]changeset.Hunk // each file's hunks, computed once per build
	include  map[string]bool             // files ticked for the apply
	reject   map[string]map[int]bool     // hunks the person decided, by file and number: true rejected, false accepted; absent undecided
	editing  string                      // the file whose new text is being edited, or ""
	page     *diffPage                   // the page of hunks shown, of the file pagePath
	pagePath string
	// rows are the rows of each hunk shown, by file, layout, hunk and
	// whether it is dimmed, computed once per build of the tab: a decision
	// on one hunk of a 5,000-line file redraws that hunk, not the file.
	rows  map[rowsKey]*pageBlock
	built int // counts builds
	// preparing is set while the rows of the file shown are computed: it
	// shows nothing yet, so Apply is disabled.
	preparing bool

	apply, acceptAll, rejectSet, revert, undo, copyMessage *widget.Button
	layout                                                 *widget.RadioGroup
}

func newReviewTab(v *View, cs changeset.ChangeSet) *reviewTab {
	t := &reviewTab{v: v, id: cs.ID, cs: cs, include: map[string]bool{}, reject: map[string]map[int]bool{},
		hunks: map[string][]changeset.Hunk{}, rows: map[rowsKey]*pageBlock{}}
	t.apply = widget.NewButton("Apply", t.applyAccepted)
	t.apply.Importance = widget.HighImportance
	t.acceptAll = widget.NewButton("Accept All", func() { t.acceptUndecided(t.cs); t.showFile(t.file); t.setButtons(t.cs) })
	t.rejectSet = widget.NewButton("Reject…", t.askReject)
	t.revert = widget.NewButton("Revert…", t.askRevert)
	t.undo = widget.NewButton("Undo Revert", t.undoRevert)
	t.copyMessage = widget.NewButton("Copy Commit Message", t.copyCommitMessage)
	t.layout = widget.NewRadioGroup([]string{layoutUnified, layoutSide}, func(string) { t.showFile(t.file) })
	t.layout.Horizontal = true
	t.layout.Required = true
	t.layout.Selected = v.layout
	t.header = container.NewVBox()
	t.files = widget.NewList(func() int { return len(t.cs.Files) }, newFileRow, t.fileRow)
	t.files.OnSelected = func(i widget.ListItemID) { t.showFile(i) }
	t.history = widget.NewLabel("")
	t.history.Wrapping = fyne.TextWrapWord
	t.body = container.NewStack()
	files := container.NewBorder(widget.NewLabelWithStyle("Files", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, nil, nil, t.files)
	t.about = container.NewVBox()
	left := container.NewVSplit(files, container.NewVScroll(container.NewVBox(t.about, t.history)))
	left.Offset = 0.6
	split := container.NewHSplit(left, t.body)
	split.Offset = 0.25
	t.item = container.NewTabItem(tabTitle(cs), container.NewBorder(t.header, nil, nil, nil, split))
	t.setButtons(changeset.ChangeSet{}) // until the diffs show
	return t
}

// tabTitle is a review tab's title.
func tabTitle(cs changeset.ChangeSet) string {
	title := changeset.MarkControls(cs.Title)
	if r := []rune(title); len(r) > 24 {
		title = string(r[:23]) + "…"
	}
	return "Review " + cs.ID + ": " + title
}

// build shows cs, read whole from the store, with the hunks of its files
// when they are computed already (by path; nil for none). The person's
// ticks, hunk decisions and the file shown are kept. Main goroutine only.
func (t *reviewTab) build(cs changeset.ChangeSet, hunks map[string][]changeset.Hunk) {
	if hunks == nil {
		hunks = map[string][]changeset.Hunk{}
	}
	rows := map[rowsKey]*pageBlock{} // those of files whose texts are as they were (an apply changes states, not texts)
	for k, b := range t.rows {
		if old, now := t.cs.File(k.path), cs.File(k.path); old != nil && now != nil && old.Base == now.Base && old.New == now.New {
			rows[k] = b
		}
	}
	t.cs, t.fp, t.hunks, t.rows = cs, setFingerprint(cs), hunks, rows
	t.built++
	title := widget.NewLabelWithStyle(changeset.MarkControls(cs.Title), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Wrapping = fyne.TextWrapWord
	meta := widget.NewLabel(metaText(cs, time.Now()))
	meta.Wrapping = fyne.TextWrapWord
	t.header.Objects = []fyne.CanvasObject{title, meta}
	t.header.Objects = append(t.header.Objects, reviewWarnings(cs)...)
	t.about.Objects = nil
	if strings.TrimSpace(cs.Description) != "" { // beside the files: a long one leaves the diffs their room
		t.about.Objects = []fyne.CanvasObject{widget.NewLabelWithStyle("Description", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			newDescription(cs.Description), widget.NewSeparator()}
	}
	t.about.Refresh()
	buttons := container.NewHBox(t.apply, t.acceptAll, t.rejectSet, t.revert, t.undo, t.copyMessage)
	t.header.Objects = append(t.header.Objects, buttons, widget.NewSeparator())
	t.header.Refresh()
	for _, f := range cs.Files {
		if _, ok := t.include[f.Path]; !ok {
			t.include[f.Path] = applicable(f)
		}
	}
	t.item.Text = tabTitle(cs)
	t.history.SetText(historyText(cs))
	t.files.Refresh()
	if t.file >= len(cs.Files) {
		t.file = 0
	}
	t.files.Select(t.file)
	t.showFile(t.file)
	t.setButtons(cs)
}

// historyText lists what happened to cs, oldest first.
func historyText(cs changeset.ChangeSet) string {
	lines := []string{"History"}
	if len(cs.History) == 0 || cs.History[0].Action != changeset.ActionProposed {
		lines = append(lines, "• "+cs.Created.Local().Format("15:04:05")+" proposed by "+clientName(cs))
	}
	for _, e := range cs.History {
		line := "• " + e.At.Local().Format("15:04:05") + " " + changeset.MarkControls(e.What)
		if e.Who != "" && e.Who != changeset.ByPerson && !strings.Contains(e.What, e.Who) {
			line += " (" + changeset.MarkControls(e.Who) + ")"
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// newFileRow is an empty file row: a checkbox to include the file and
// its label, cut with an ellipsis where the column is narrow.
func newFileRow() fyne.CanvasObject {
	label := widget.NewLabel("")
	label.Truncation = fyne.TextTruncateEllipsis
	return container.NewBorder(nil, nil, widget.NewCheck("", nil), nil, label)
}

// fileRow fills file row i: its checkbox, its label and whether it can
// still be applied.
func (t *reviewTab) fileRow(i widget.ListItemID, o fyne.CanvasObject) {
	f := t.cs.Files[i]
	row := o.(*fyne.Container)
	label, c := row.Objects[0].(*widget.Label), row.Objects[1].(*widget.Check)
	label.SetText(fileText(f))
	c.OnChanged = nil
	c.SetChecked(t.include[f.Path])
	path := f.Path
	c.OnChanged = func(on bool) {
		t.include[path] = on
		t.showFile(t.file)
		t.setButtons(t.cs)
	}
	if applicable(f) && canApply(t.cs) {
		c.Enable()
	} else {
		c.Disable()
	}
}

// showFile shows file i's hunks (or its editor while it is being edited).
func (t *reviewTab) showFile(i int) {
	t.v.layout = t.layout.Selected
	if i < 0 || i >= len(t.cs.Files) {
		t.body.Objects = nil
		t.body.Refresh()
		return
	}
	t.file = i
	f := t.cs.Files[i]
	if t.editing == f.Path {
		t.body.Objects = []fyne.CanvasObject{t.editorOf(f)}
	} else {
		t.body.Objects = []fyne.CanvasObject{t.hunksOf(f)}
	}
	t.body.Refresh()
}

// hunksOf is file f's hunks, each under a bar with its number, range,
// state and Accept / Reject buttons.
func (t *reviewTab) hunksOf(f changeset.FileChange) fyne.CanvasObject {
	hunks := t.hunksOfFile(f)
	edit := widget.NewButton("Edit Proposed Text", func() { t.startEdit(f.Path) })
	rejectFile := widget.NewButton("Reject File…", func() { t.askRejectFile(f.Path) })
	if !applicable(f) || !canApply(t.cs) {
		rejectFile.Disable()
		edit.Disable()
	}
	if f.Action == changeset.ActionDelete || !editable(f) {
		edit.Disable()
	}
	// The file's line sits above its buttons (beside them it had some 70 px
	// at a 1024 px window and wrapped a few letters to a line) and scrolls
	// within two lines' height: a long path of short words or a stale
	// note, wrapped, never makes the window taller.
	top := container.NewVBox(boundedLines(wrapLabel(fileText(f)+hunkSummary(t, f, hunks)), 2),
		container.NewHBox(t.layout, edit, rejectFile))
	if len(hunks) == 0 {
		return container.NewBorder(top, nil, nil, nil, widget.NewLabel("(no textual change)"))
	}
	if !t.prepareRows(f, hunks) {
		t.preparing = true // Apply waits until the person can see what it applies
		t.apply.Disable()
		return container.NewBorder(top, nil, nil, nil, widget.NewLabel("Preparing the diff…"))
	}
	if t.preparing {
		t.preparing = false
		defer t.setButtons(t.cs)
	}
	// Every hunk is on the page, however many: the page makes objects
	// only for what is in view, so none is left out of sight (and applied
	// unseen) to keep the window answering.
	blocks := make([]*pageBlock, 0, 2*len(hunks))
	for _, h := range hunks {
		blocks = append(blocks, barBlock(t.hunkBarText(f, h), func() fyne.CanvasObject { return t.hunkBar(f, h) }),
			t.rows[t.rowsKeyOf(f, h)])
	}
	page := newDiffPage(blocks)
	if t.page != nil && t.pagePath == f.Path {
		page.startAt(t.page.offset()) // a decision or a new layout keeps the person's place
	}
	t.page, t.pagePath = page, f.Path
	return container.NewBorder(top, nil, nil, nil, page)
}

// rowsKey names the rows of a hunk as a review shows them.
type rowsKey struct {
	path, layout string
	n            int
	dim          bool
}

// rowsKeyOf is the key of hunk h's rows of f as the tab shows them now.
func (t *reviewTab) rowsKeyOf(f changeset.FileChange, h changeset.Hunk) rowsKey {
	return rowsKey{f.Path, t.layout.Selected, h.N, t.reject[f.Path][h.N] || storedHunkState(f, h.N) == changeset.FileRejected}
}

// prepareRows makes sure the tab holds the rows of every hunk of f as it
// shows them now. Those it lacks (a file opened, a layout chosen) are
// computed off the main goroutine — the rows of a 5,000-line file take a
// good part of a second — and f is shown again once they are in. It
// reports whether they are all there now. Main goroutine only.
func (t *reviewTab) prepareRows(f changeset.FileChange, hunks []changeset.Hunk) bool {
	var todo []rowsKey
	byN := map[int]changeset.Hunk{}
	for _, h := range hunks {
		if k := t.rowsKeyOf(f, h); t.rows[k] == nil {
			todo, byN[h.N] = append(todo, k), h
		}
	}
	if len(todo) == 0 {
		return true
	}
	p, built, returned := newPalette(), t.built, false // the palette reads the theme: here
	t.v.async(func() {
		syn := newFileSyntax(f)
		out := make(map[rowsKey]*pageBlock, len(todo))
		for _, k := range todo {
			out[k] = rowsBlock(hunkRows(p, syn, k, byN[k.n]))
		}
		t.v.do(func() {
			if t.built != built { // built again since: these rows may be old
				return
			}
			maps.Copy(t.rows, out)
			if returned && t.file < len(t.cs.Files) && t.cs.Files[t.file].Path == f.Path {
				t.showFile(t.file)
			}
		})
	})
	returned = true
	return len(todo) > 0 && t.rows[todo[0]] != nil // the work ran inline (tests)
}

// hunkRows renders hunk h as k says: in its layout, dimmed when rejected.
// Plain logic, any goroutine (p is used by one at a time).
func hunkRows(p *palette, syn fileSyntax, k rowsKey, h changeset.Hunk) []diffRow {
	rows := unifiedRows(p, syn, h)
	if k.layout == layoutSide {
		rows = sideRows(p, syn, h)
	}
	if k.dim {
		rows = dimRows(p, rows) // rejected: shown, but plainly not what will be
	}
	return rows
}

// editable reports whether the person may still replace f's proposed
// text: nothing of it is applied or rejected yet.
func editable(f changeset.FileChange) bool {
	for _, h := range f.Hunks {
		if h.State != changeset.StatePending && h.State != changeset.StateStale && h.State != changeset.StateConflict {
			return false
		}
	}
	return true
}

// hunksOfFile is changeset.Hunks(f), kept per build of the tab for the
// files of the set it shows (a copy shares their text, so the comparison
// is cheap).
func (t *reviewTab) hunksOfFile(f changeset.FileChange) []changeset.Hunk {
	cf := t.cs.File(f.Path)
	if cf == nil || cf.Base != f.Base || cf.New != f.New {
		return changeset.Hunks(f)
	}
	if h, ok := t.hunks[f.Path]; ok {
		return h
	}
	h := changeset.Hunks(f)
	t.hunks[f.Path] = h
	return h
}

// boundedLines shows l whole while its text takes at most lines lines,
// and beyond that in a scroll of that height: however long l's text, it
// asks for no more room.
func boundedLines(l *widget.Label, lines int) fyne.CanvasObject {
	one := widget.NewLabel("Ag").MinSize().Height
	text := one - 2*theme.InnerPadding()
	return container.New(capHeight{l: l, most: one + float32(lines-1)*text}, container.NewVScroll(l))
}

// capHeight lays its one object over its whole size and asks for l's
// height, but no more than most.
type capHeight struct {
	l    *widget.Label
	most float32
}

func (c capHeight) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(0, min(c.l.MinSize().Height, c.most))
}

func (c capHeight) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func wrapLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// setButtons enables what the person may do with cs. Main goroutine only.
func (t *reviewTab) setButtons(cs changeset.ChangeSet) {
	applied := cs.State == changeset.StateApplied || cs.State == changeset.StatePartlyApplied
	d := t.decisions(cs)
	if label := applyLabel(d); t.apply.Text != label {
		t.apply.SetText(label)
	}
	enable(t.apply, canApply(cs) && !d.empty() && !t.preparing)
	enable(t.acceptAll, canApply(cs) && !t.preparing)
	enable(t.rejectSet, canApply(cs))
	enable(t.revert, applied)
	enable(t.undo, cs.State == changeset.StateReverted)
	enable(t.copyMessage, applied)
}

// applyLabel says what Apply will do: "Apply 3 hunks, reject 1".
func applyLabel(d decisions) string {
	count := func(sel changeset.Selection) (n int, whole bool) {
		for _, hunks := range sel {
			n += len(hunks)
			whole = whole || hunks == nil
		}
		return n, whole
	}
	a, whole := count(d.apply)
	r, _ := count(d.reject)
	switch {
	case whole || a == 0 && r == 0:
		return "Apply"
	case r == 0:
		return fmt.Sprintf("Apply %d hunk%s", a, plural(a))
	case a == 0:
		return fmt.Sprintf("Reject %d hunk%s", r, plural(r))
	}
	return fmt.Sprintf("Apply %d hunk%s, reject %d", a, plural(a), r)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func enable(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}
