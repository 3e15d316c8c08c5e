package review

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
)

// Proposals returns the change sets that still propose hunks for path,
// newest first (list records: no file bodies). Main goroutine only.
func (v *View) Proposals(path string) []changeset.ChangeSet {
	var out []changeset.ChangeSet
	for _, cs := range v.sets {
		if f := cs.File(path); f != nil && cs.CanApply() && applicable(*f) {
			out = append(out, cs)
		}
	}
	return out
}

// Version changes whenever change set id or one of its files changes
// state: an inline view of it need not be built again while it is the
// same. Main goroutine only.
func (v *View) Version(id string) string {
	if i := v.index(id); i >= 0 {
		return setFingerprint(v.sets[i])
	}
	return ""
}

// ProposalText is the line a file's tab shows above its editor while
// sets propose hunks for it.
func ProposalText(path string, sets []changeset.ChangeSet) string {
	cs := sets[0]
	s := fmt.Sprintf("%s proposes changes to %s in %s (%s)", clientName(cs), changeset.MarkControls(path), cs.ID, changeset.MarkControls(cs.Title))
	if len(sets) > 1 {
		s += fmt.Sprintf(", and %d more change sets", len(sets)-1)
	}
	return s
}

// Inline shows the proposal of change set id for path inline: the whole
// file, its unchanged lines plain and each hunk in place, removed lines
// tinted red and added lines green, each with Accept and Reject, which
// apply or reject that hunk at once (the unsaved-buffer rule holds: an
// unsaved editor is saved first with the person's consent, or nothing is
// written). The set is read whole off the main goroutine; show receives
// the view on the main goroutine. back returns to the editor. Main
// goroutine only.
func (v *View) Inline(id, path string, back func(), show func(fyne.CanvasObject)) {
	p := newPalette() // it reads the theme: here
	v.async(func() {
		full, err := v.m.Full(id)
		f := full.File(path)
		var parts []inlinePart
		hunks := make(map[string][]changeset.Hunk, len(full.Files))
		if err == nil && f != nil { // a 5,000-line file takes a while: not on the main goroutine
			for _, cf := range full.Files {
				hunks[cf.Path] = changeset.Hunks(cf)
			}
			parts = inlineParts(p, *f, hunks[path])
		}
		v.do(func() {
			if err != nil {
				v.notify("change sets: " + err.Error())
				return
			}
			if f == nil {
				return
			}
			show(v.inlineOf(full, *f, hunks, parts, back))
		})
	})
}

// inlinePart is a run of plain rows of the inline view, or a hunk.
type inlinePart struct {
	rows []diffRow
	hunk *changeset.Hunk // with its rows
}

// inlineParts renders f whole: its unchanged lines plain and each of
// hunks in place. Plain logic, any goroutine (p is used by one at a time).
func inlineParts(p *palette, f changeset.FileChange, hunks []changeset.Hunk) []inlinePart {
	syn := newFileSyntax(f)
	base := strings.SplitAfter(f.Base, "\n")
	if n := len(base); n > 0 && base[n-1] == "" {
		base = base[:n-1]
	}
	var parts []inlinePart
	next := 1 // the next base line not shown yet
	plain := func(to int) {
		var rows []diffRow
		for ; next < to && next <= len(base); next++ {
			l := changeset.DiffLine{Kind: changeset.Context, Text: strings.TrimSuffix(base[next-1], "\n"), Old: next, New: next}
			rows = append(rows, unifiedRows(p, syn, changeset.Hunk{Lines: []changeset.DiffLine{l}})...)
		}
		if len(rows) > 0 {
			parts = append(parts, inlinePart{rows: rows})
		}
	}
	for _, h := range hunks {
		start := h.OldStart
		if h.OldLines == 0 {
			start++ // an insertion after line OldStart
		}
		plain(start)
		parts = append(parts, inlinePart{rows: unifiedRows(p, syn, h), hunk: &h})
		next = max(next, start+h.OldLines)
	}
	plain(len(base) + 1)
	return parts
}

// inlineOf builds the inline view of f, a file of cs, from its parts;
// hunks are those of cs's files. Main goroutine only.
func (v *View) inlineOf(cs changeset.ChangeSet, f changeset.FileChange, hunks map[string][]changeset.Hunk, parts []inlinePart, back func()) fyne.CanvasObject {
	t := v.tabs[cs.ID]
	if t == nil { // decisions go through a review tab, opened or not
		t = newReviewTab(v, cs)
		v.tabs[cs.ID] = t
		t.build(cs, hunks)
	}
	blocks := make([]*pageBlock, 0, len(parts)+len(hunks[f.Path])) // on a page: a 5,000-line file costs a screenful
	for _, part := range parts {
		if h := part.hunk; h != nil {
			blocks = append(blocks, barBlock(inlineBarText(f, *h), func() fyne.CanvasObject { return t.inlineBar(f, *h) }))
		}
		blocks = append(blocks, rowsBlock(part.rows))
	}
	open := widget.NewButton("Open Review", func() { v.open(cs.ID) })
	done := widget.NewButton("Back to Editor", back)
	done.Importance = widget.HighImportance
	bar := container.NewBorder(nil, nil, nil, container.NewHBox(open, done),
		wrapLabel(fmt.Sprintf("Proposed in %s by %s: %s", cs.ID, clientName(cs), changeset.MarkControls(cs.Title))))
	page := newDiffPage(blocks)
	page.atFirstBar = true
	return container.NewBorder(container.NewVBox(bar, widget.NewSeparator()), nil, nil, nil, page)
}

// inlineBar is a hunk's bar in the inline view: Accept and Reject act on
// that hunk at once.
func (t *reviewTab) inlineBar(f changeset.FileChange, h changeset.Hunk) fyne.CanvasObject {
	path, n := f.Path, h.N
	state := storedHunkState(f, n)
	label := widget.NewLabelWithStyle(inlineBarText(f, h), fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	label.Wrapping = fyne.TextWrapWord
	accept := widget.NewButton("Accept", func() {
		t.decide(t.cs, decisions{apply: changeset.Selection{path: {n}}, reject: changeset.Selection{}})
	})
	accept.Importance = widget.SuccessImportance
	reject := widget.NewButton("Reject", func() {
		t.decide(t.cs, decisions{apply: changeset.Selection{}, reject: changeset.Selection{path: {n}}})
	})
	if !undecided(state) || !canApply(t.cs) {
		accept.Disable()
		reject.Disable()
	}
	return barOf(label, accept, reject)
}

// inlineBarText is the text of hunk h's bar in the inline view of f.
func inlineBarText(f changeset.FileChange, h changeset.Hunk) string {
	state := storedHunkState(f, h.N)
	if state == "" {
		state = changeset.StatePending
	}
	return fmt.Sprintf("Hunk %d · %s", h.N, stateText(state))
}
