package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
	"trestle/ui/review"
)

// inlineProposal is what a file's tab shows of the change sets that
// propose hunks for it: a strip above the editor, and on demand the
// proposal inline in place of the editor (review.View.Inline).
type inlineProposal struct {
	id      string // the newest set proposing for the file
	inline  bool   // the inline view is shown
	version string // the set's version the inline view shows (review.View.Version)
}

// showProposals updates every file tab: a tab whose file a pending change
// set touches shows a strip above its editor with Show Inline and Open
// Review; the others show their editor alone. Main goroutine only.
func (r *reviewUI) showProposals() {
	for t := range r.inline {
		if r.w.tabs.byItem[t.item] != t { // closed
			delete(r.inline, t)
		}
	}
	for _, t := range r.w.tabs.byItem {
		r.showProposalsIn(t)
	}
}

// showProposalsIn updates tab t (see showProposals). Main goroutine only.
func (r *reviewUI) showProposalsIn(t *fileTab) {
	if r.view == nil || t.view == nil {
		return
	}
	if r.inline == nil {
		r.inline = map[*fileTab]*inlineProposal{}
	}
	sets := r.view.Proposals(t.path)
	st := r.inline[t]
	if len(sets) == 0 {
		if st != nil {
			delete(r.inline, t)
			r.setTabContent(t, t.view)
		}
		return
	}
	if st == nil {
		st = &inlineProposal{}
		r.inline[t] = st
	}
	if st.inline && st.id == sets[0].ID && st.version == r.view.Version(st.id) {
		return // as shown: building it again would lose the person's scroll
	}
	st.id = sets[0].ID
	if st.inline {
		r.showInline(t, st)
		return
	}
	r.setTabContent(t, container.NewBorder(r.proposalStrip(t, st, sets), nil, nil, nil, t.view))
}

// proposalStrip is the line above t's editor naming the proposal, on the
// theme's primary colour, faint.
func (r *reviewUI) proposalStrip(t *fileTab, st *inlineProposal, sets []changeset.ChangeSet) fyne.CanvasObject {
	msg := widget.NewLabel(review.ProposalText(t.path, sets))
	msg.Truncation = fyne.TextTruncateEllipsis
	show := widget.NewButton("Show Inline", func() { r.showInline(t, st) })
	show.Importance = widget.HighImportance
	open := widget.NewButton("Open Review", func() { r.showSet(st.id) })
	red, green, blue, _ := theme.Color(theme.ColorNamePrimary).RGBA()
	c := color.NRGBA{R: uint8(red >> 8), G: uint8(green >> 8), B: uint8(blue >> 8), A: 0x30}
	return container.NewStack(canvas.NewRectangle(c), container.NewBorder(nil, nil, nil, container.NewHBox(show, open), msg))
}

// showInline shows st's proposal inline in t, in place of its editor.
func (r *reviewUI) showInline(t *fileTab, st *inlineProposal) {
	st.inline, st.version = true, r.view.Version(st.id)
	back := func() {
		st.inline = false
		r.showProposalsIn(t)
		r.w.tabs.focusText(t)
	}
	r.view.Inline(st.id, t.path, back, func(o fyne.CanvasObject) {
		if r.inline[t] == st && st.inline {
			r.setTabContent(t, o)
		}
	})
}

// setTabContent shows o in t's tab. The tabs hide the content of a tab
// not shown, and show again only what is its content when it is
// selected: an editor that was a hidden tab's content and is now inside
// o would stay hidden (a blank tab that took no typing), so it is shown
// here; o itself is the tabs' to hide or show.
func (r *reviewUI) setTabContent(t *fileTab, o fyne.CanvasObject) {
	if t.item.Content == o {
		return
	}
	t.item.Content = o
	if t.view != nil && o != fyne.CanvasObject(t.view) {
		t.view.Show()
	}
	r.w.tabs.docs.Refresh()
	if r.w.tabs.current() == t && t.view != nil && !holds(o, t.view) && r.w.tabs.win != nil {
		r.w.tabs.dropHiddenKeys() // Show Inline hid the editor that had the keys
	}
}
