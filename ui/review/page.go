package review

import (
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// pageMargin is how far past the view, above and below, a page keeps
// objects made, as a share of the view's height: a wheel step or two
// scrolls into rows already drawn.
const pageMargin = 0.5

// pageChunk is the number of wrapped rows a page shows or drops at once:
// a scroll that moves less than that within a hunk changes no object, it
// only moves the page.
const pageChunk = 32

// diffPage shows a file's review — hunk bars, each above its diff rows,
// and runs of plain rows — in a vertical scroll, wrapped to its width,
// making objects only for what is in view (and a margin): a 5,000-line
// proposal costs the main goroutine a screenful of cells, not 5,000 rows
// of them, however far the person scrolls. Every block can be scrolled
// to: nothing is cut. Main goroutine only.
type diffPage struct {
	widget.BaseWidget
	blocks []*pageBlock
	scroll *container.Scroll
	body   *pageBody
	cols   int     // the width the rows are wrapped to, in cells; 0 before the first layout
	width  float32 // the width the blocks are laid out in
	total  float32 // the height of every block, in order
}

// pageBlock is one block of a page: a bar (made while in view) or a run
// of diff rows.
type pageBlock struct {
	bar     func() fyne.CanvasObject // a hunk's bar; nil for rows
	barText string                   // the bar's text, which its height depends on
	rows    []diffRow

	// At the page's width:
	cols    int // the width wrapped is wrapped to
	wrapped []widget.TextGridRow
	strikes []strike
	top     float32
	height  float32

	shown fyne.CanvasObject // the bar, or the piece of rows, while in view
	from  int               // the first wrapped row the piece shows
	to    int               // past the last
}

// barBlock is a block holding the bar make returns; text is the bar's
// text, which decides its height.
func barBlock(text string, make func() fyne.CanvasObject) *pageBlock {
	return &pageBlock{bar: make, barText: text}
}

// rowsBlock is a block of diff rows.
func rowsBlock(rows []diffRow) *pageBlock { return &pageBlock{rows: rows} }

// newDiffPage shows blocks, in order.
func newDiffPage(blocks []*pageBlock) *diffPage {
	for _, b := range blocks { // a block of rows may come from a page before, wrapped already
		b.shown, b.from, b.to = nil, 0, 0
	}
	p := &diffPage{blocks: blocks}
	p.body = newPageBody(p)
	p.scroll = container.NewVScroll(p.body)
	p.scroll.OnScrolled = func(fyne.Position) { p.place() }
	p.ExtendBaseWidget(p)
	return p
}

// CreateRenderer implements fyne.Widget.
func (p *diffPage) CreateRenderer() fyne.WidgetRenderer { return &diffPageRenderer{p: p} }

// layoutAt wraps every block to width and places them one under the
// other, when the width changed.
func (p *diffPage) layoutAt(width float32) {
	cols := max(int(width/diffCell().Width), minDiffCols)
	if width == p.width && cols == p.cols {
		return
	}
	p.width = width
	p.cols = cols
	for _, b := range p.blocks {
		if b.bar == nil && b.cols != cols {
			b.wrapped, b.strikes = wrapRows(b.rows, cols)
			b.cols, b.from, b.to = cols, 0, 0 // the piece shown must be filled again
		}
	}
	cell := diffCell().Height
	bars := newBarMeasure()
	p.total = 0
	for _, b := range p.blocks {
		b.top = p.total
		if b.bar != nil {
			b.height = bars.height(b.barText, width)
		} else {
			b.height = cell * float32(len(b.wrapped))
		}
		p.total += b.height
	}
}

// firstBelow returns the first block that ends below y, by binary search.
func (p *diffPage) firstBelow(y float32) int {
	return sort.Search(len(p.blocks), func(i int) bool { return p.blocks[i].top+p.blocks[i].height > y })
}

// place shows what is in view (and the margin) and drops the rest.
func (p *diffPage) place() {
	view := p.scroll.Size().Height
	lo := p.scroll.Offset.Y - view*pageMargin
	hi := p.scroll.Offset.Y + view*(1+pageMargin)
	cell := diffCell().Height
	var objects []fyne.CanvasObject
	first := p.firstBelow(lo)
	last := first
	for i := first; i < len(p.blocks) && p.blocks[i].top < hi; i++ {
		last = i + 1
		b := p.blocks[i]
		if b.bar != nil {
			if b.shown == nil {
				b.shown = b.bar()
			}
			b.shown.Move(fyne.NewPos(0, b.top))
			b.shown.Resize(fyne.NewSize(p.width, b.height))
			objects = append(objects, b.shown)
			continue
		}
		from := max(0, int((lo-b.top)/cell)) / pageChunk * pageChunk
		to := min(len(b.wrapped), (int((hi-b.top)/cell)/pageChunk+1)*pageChunk)
		piece, _ := b.shown.(*rowsPiece)
		if piece == nil {
			piece = newRowsPiece()
			b.shown, b.from, b.to = piece, 0, 0
		}
		if from != b.from || to != b.to {
			b.from, b.to = from, to
			piece.show(b.wrapped[from:to], b.strikes, from)
		}
		piece.Move(fyne.NewPos(0, b.top+float32(from)*cell))
		piece.Resize(fyne.NewSize(p.width, float32(to-from)*cell))
		objects = append(objects, piece)
	}
	for i, b := range p.blocks {
		if (i < first || i >= last) && b.shown != nil {
			b.shown, b.from, b.to = nil, 0, 0
		}
	}
	p.body.objects = objects
	canvas.Refresh(p.body) // drawn again with what it holds now; nothing in it is refreshed
}

// startAt makes the page open scrolled to y (as far as it goes), before
// it is laid out: as the page it replaces was.
func (p *diffPage) startAt(y float32) { p.scroll.Offset.Y = y }

// offset is how far the page is scrolled.
func (p *diffPage) offset() float32 { return p.scroll.Offset.Y }

// inView returns the objects the page holds now: what is in view and
// the margin.
func (p *diffPage) inView() []fyne.CanvasObject { return p.body.objects }

// scrollTo scrolls the page so that y is at the top (as far as it goes).
func (p *diffPage) scrollTo(y float32) {
	p.scroll.ScrollToOffset(fyne.NewPos(0, max(0, min(y, p.total-p.scroll.Size().Height))))
	p.place()
}

// barMeasure finds how tall a hunk bar is at a width: one line, unless
// its text wraps, which a template bar measures.
type barMeasure struct {
	oneLine  float32
	template *fyne.Container
	label    *widget.Label
}

func newBarMeasure() *barMeasure { return &barMeasure{} }

// height is the height of a bar with text at width.
func (m *barMeasure) height(text string, width float32) float32 {
	if m.template == nil {
		m.label = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
		m.label.Wrapping = fyne.TextWrapWord
		m.template = barOf(m.label, widget.NewButton("Accept", nil), widget.NewButton("Reject", nil))
		m.oneLine = m.template.MinSize().Height
	}
	buttons := m.template.Objects[1].MinSize().Width
	textWidth := float32(len([]rune(text))) * diffCell().Width // monospace: no text to measure
	if textWidth+4*theme.InnerPadding() < width-buttons {
		return m.oneLine
	}
	m.label.SetText(text)
	m.template.Resize(fyne.NewSize(width, m.oneLine))
	m.template.Resize(fyne.NewSize(width, m.template.MinSize().Height))
	return m.template.MinSize().Height
}

// barOf lays a bar out: its label, and its buttons at the right.
func barOf(label *widget.Label, buttons ...fyne.CanvasObject) *fyne.Container {
	return container.NewBorder(nil, nil, nil, container.NewHBox(buttons...), label)
}
