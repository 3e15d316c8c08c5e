package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/quickopen"
)

// finderLimit bounds the rows a finder shows: a person reads the first few;
// ranking stays over every candidate.
const finderLimit = 200

// finder is a fuzzy picker in a pop-up over the window: a query line and a
// ranked list, driven from the keyboard (Up/Down move, Enter picks, Escape
// closes) or the mouse. Go to File and the command palette are finders.
// All its methods must be called on the main goroutine.
type finder struct {
	popup   *widget.PopUp
	entry   *finderEntry
	list    *widget.List
	status  *widget.Label
	none    *widget.Label // over the list when nothing matches
	results []quickopen.Result
	cursor  int
	// rank ranks the query; detail is the right-hand text of a result
	// (a shortcut, a folder); pick acts on one (the finder is closed);
	// noMatch says that nothing matches the query ("" says nothing).
	rank    func(query string) []quickopen.Result
	detail  func(quickopen.Result) string
	pick    func(r quickopen.Result, query string)
	noMatch func(query string) string
	// listing is set while the candidates are still being read; Enter
	// then waits for them (chooseWhenListed) instead of picking nothing.
	listing, chooseWhenListed bool
}

func newFinder(c fyne.Canvas, placeholder string) *finder {
	f := &finder{detail: func(quickopen.Result) string { return "" }, noMatch: func(string) string { return "" }}
	f.entry = newFinderEntry(f)
	f.entry.SetPlaceHolder(placeholder)
	f.entry.OnChanged = func(string) { f.refresh() }
	f.status = widget.NewLabel("")
	f.status.Importance = widget.LowImportance
	f.status.Hide()
	f.list = widget.NewList(func() int { return len(f.results) }, f.newRow, f.updateRow)
	f.list.OnSelected = func(id widget.ListItemID) {
		f.list.UnselectAll()
		f.cursor = id
		f.choose()
	}
	f.none = widget.NewLabel("")
	f.none.Alignment = fyne.TextAlignCenter
	f.none.Wrapping = fyne.TextWrapWord
	f.none.Hide()
	content := container.NewBorder(container.NewVBox(f.entry, f.status), nil, nil, nil,
		container.NewStack(f.list, container.NewVBox(f.none)))
	f.popup = widget.NewPopUp(content, c)
	return f
}

// show places the finder in the top middle of the window, sized to it,
// and gives the query line the keyboard.
func (f *finder) show(c fyne.Canvas) {
	size := c.Size()
	w := min(size.Width-40, 720)
	h := min(size.Height-80, 440)
	f.popup.Resize(fyne.NewSize(w, h))
	f.popup.ShowAtPosition(fyne.NewPos((size.Width-w)/2, 30))
	f.refresh()
	c.Focus(f.entry)
}

// setStatus shows a line under the query (what is being ranked, or why not).
// listed ends the listing: the candidates are in (ok) and an Enter pressed
// while they were read picks now, or the listing failed and the finder
// stays open with its status saying why.
func (f *finder) listed(ok bool) {
	f.listing = false
	f.refresh()
	if f.chooseWhenListed && ok && f.popup.Visible() { // not closed since
		f.chooseWhenListed = false
		f.choose()
	}
	f.chooseWhenListed = false
}

func (f *finder) setStatus(s string) {
	f.status.SetText(s)
	if s == "" {
		f.status.Hide()
	} else {
		f.status.Show()
	}
}

func (f *finder) refresh() {
	f.results = f.rank(f.entry.Text)
	f.cursor = 0
	f.list.Refresh()
	f.list.ScrollToTop()
	if msg := f.noMatch(f.entry.Text); len(f.results) == 0 && msg != "" {
		f.none.SetText(msg)
		f.none.Show()
	} else {
		f.none.Hide()
	}
}

func (f *finder) move(by int) {
	if len(f.results) == 0 {
		return
	}
	f.cursor = max(0, min(len(f.results)-1, f.cursor+by))
	f.list.Refresh()
	f.list.ScrollTo(f.cursor)
}

// choose closes the finder and picks the result under the cursor; with no
// result it still picks (a ":12" query needs no file).
func (f *finder) choose() {
	if f.listing {
		f.chooseWhenListed = true // keys typed before the listing came still count
		return
	}
	query := f.entry.Text
	var r quickopen.Result
	r.Index = -1
	if f.cursor < len(f.results) {
		r = f.results[f.cursor]
	}
	f.close()
	f.pick(r, query)
}

func (f *finder) close() {
	if c := fyne.CurrentApp().Driver().CanvasForObject(f.entry); c != nil {
		c.Unfocus()
	}
	f.popup.Hide()
}

func (f *finder) newRow() fyne.CanvasObject {
	bg := canvas.NewRectangle(color.Transparent)
	name := widget.NewRichText()
	detail := widget.NewLabel("")
	detail.Importance = widget.LowImportance
	return container.NewStack(bg, container.NewBorder(nil, nil, nil, detail, name))
}

func (f *finder) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	if id >= len(f.results) {
		return
	}
	r := f.results[id]
	stack := o.(*fyne.Container)
	bg := stack.Objects[0].(*canvas.Rectangle)
	row := stack.Objects[1].(*fyne.Container)
	if id == f.cursor {
		bg.FillColor = theme.Color(theme.ColorNameSelection)
	} else {
		bg.FillColor = color.Transparent
	}
	bg.Refresh()
	for _, obj := range row.Objects {
		switch w := obj.(type) {
		case *widget.RichText:
			w.Segments = highlighted(r.Name, r.Matched)
			w.Refresh()
		case *widget.Label:
			w.SetText(f.detail(r))
		}
	}
}

// highlighted is name with the matched bytes in bold, as rich text.
func highlighted(name string, matched []int) []widget.RichTextSegment {
	in := make(map[int]bool, len(matched))
	for _, i := range matched {
		in[i] = true
	}
	var segs []widget.RichTextSegment
	start, bold := 0, false
	flush := func(end int) {
		if end > start {
			style := widget.RichTextStyleInline
			if bold {
				style = widget.RichTextStyleStrong
			}
			segs = append(segs, &widget.TextSegment{Text: name[start:end], Style: style})
		}
		start = end
	}
	for i := range name { // rune starts: a match never splits a rune
		if in[i] != bold {
			flush(i)
			bold = in[i]
		}
	}
	flush(len(name))
	return segs
}

// finderEntry is the finder's query line: it keeps typing for itself and
// gives Up, Down, Page Up/Down, Enter and Escape to the finder.
type finderEntry struct {
	widget.Entry
	f *finder
}

func newFinderEntry(f *finder) *finderEntry {
	e := &finderEntry{f: f}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey implements fyne.Focusable.
func (e *finderEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyUp:
		e.f.move(-1)
	case fyne.KeyDown:
		e.f.move(1)
	case fyne.KeyPageUp:
		e.f.move(-10)
	case fyne.KeyPageDown:
		e.f.move(10)
	case fyne.KeyReturn, fyne.KeyEnter:
		e.f.choose()
	case fyne.KeyEscape:
		e.f.close()
	default:
		e.Entry.TypedKey(k)
	}
}
