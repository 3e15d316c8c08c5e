package review

import (
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// pageMargin is how far past the view, above and below, a page keeps
// objects made, as a share of the view's height: a wheel step or two
// scrolls into rows already drawn. Fyne paints every object a page holds,
// in view or not (each cell of a grid is a draw), so it stays small.
const pageMargin = 0.25

// pageChunk is the number of wrapped rows a page shows or drops at once,
// in one grid: a scroll adds a chunk coming into view and drops one
// going out of it, and changes none of the others.
const pageChunk = 16

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
	// atFirstBar makes the first layout scroll to the first hunk's bar (a
	// few rows of context above it): the inline view of a long file opens
	// where the proposal changes it, not at line 1.
	atFirstBar bool
}

// pageBlock is one block of a page: a bar (made while in view) or a run
// of diff rows.
type pageBlock struct {
	makeBar func() fyne.CanvasObject // a hunk's bar; nil for rows
	barText string                   // the bar's text, which its height depends on
	rows    []diffRow

	// At the page's width:
	cols    int // the width wrapped is wrapped to
	wrapped []widget.TextGridRow
	strikes []strike
	top     float32
	height  float32

	bar   fyne.CanvasObject  // the bar, while in view
	chunk map[int]*rowsPiece // the chunks of rows in view, by number (rows from number*pageChunk)
}

// barBlock is a block holding the bar make returns; text is the bar's
// text, which decides its height.
func barBlock(text string, make func() fyne.CanvasObject) *pageBlock {
	return &pageBlock{makeBar: make, barText: text}
}

// rowsBlock is a block of diff rows.
func rowsBlock(rows []diffRow) *pageBlock { return &pageBlock{rows: rows} }

// newDiffPage shows blocks, in order.
func newDiffPage(blocks []*pageBlock) *diffPage {
	for _, b := range blocks { // a block of rows may come from a page before, wrapped, its chunks drawn
		b.bar = nil // its state may have changed
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
		if b.makeBar == nil && b.cols != cols {
			b.wrapped, b.strikes = wrapRows(b.rows, cols)
			b.cols, b.chunk = cols, nil // the chunks shown must be made again
		}
	}
	cell := diffCell().Height
	bars := newBarMeasure()
	p.total = 0
	for _, b := range p.blocks {
		b.top = p.total
		if b.makeBar != nil {
			b.height = bars.height(b.barText, width)
		} else {
			b.height = cell * float32(len(b.wrapped))
		}
		p.total += b.height
	}
	if p.atFirstBar {
		p.atFirstBar = false
		for _, b := range p.blocks {
			if b.makeBar != nil {
				p.scroll.Offset.Y = max(0, b.top-3*cell)
				break
			}
		}
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
	var objects []fyne.CanvasObject
	first := p.firstBelow(lo)
	last := first
	for i := first; i < len(p.blocks) && p.blocks[i].top < hi; i++ {
		last = i + 1
		b := p.blocks[i]
		if b.makeBar == nil {
			objects = p.placeRows(b, lo, hi, objects)
			continue
		}
		if b.bar == nil {
			b.bar = b.makeBar()
		}
		b.bar.Move(fyne.NewPos(0, b.top))
		b.bar.Resize(fyne.NewSize(p.width, b.height))
		objects = append(objects, b.bar)
	}
	for i, b := range p.blocks {
		if i < first || i >= last {
			b.bar, b.chunk = nil, nil
		}
	}
	// No canvas.Refresh of the body: it would drop the textures of every
	// cell in view, on each wheel step. The scroll repaints after it
	// calls place, and a layout repaints anyway; what came into view is
	// drawn then.
	p.body.objects = objects
}

// placeRows adds to objects the chunks of b's rows between lo and hi,
// making those that come into view, and drops the others.
func (p *diffPage) placeRows(b *pageBlock, lo, hi float32, objects []fyne.CanvasObject) []fyne.CanvasObject {
	cell := diffCell().Height
	from := max(0, int((lo-b.top)/cell)) / pageChunk
	to := min(len(b.wrapped)-1, int((hi-b.top)/cell)) / pageChunk
	for n := range b.chunk {
		if n < from || n > to {
			delete(b.chunk, n)
		}
	}
	if b.chunk == nil {
		b.chunk = map[int]*rowsPiece{}
	}
	for n := from; n <= to; n++ {
		start := n * pageChunk
		piece := b.chunk[n]
		if piece == nil {
			piece = newRowsPiece(b.wrapped[start:min(start+pageChunk, len(b.wrapped))], b.strikes, start)
			b.chunk[n] = piece
		}
		piece.Move(fyne.NewPos(0, b.top+float32(start)*cell))
		piece.Resize(fyne.NewSize(p.width, float32(len(piece.grid.Rows))*cell))
		objects = append(objects, piece)
	}
	return objects
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
