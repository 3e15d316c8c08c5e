package review

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// diffPageRenderer lays the page's scroll out and, on a new width, wraps
// the blocks to it; the body shows what is in view.
type diffPageRenderer struct {
	p *diffPage
}

func (r *diffPageRenderer) Layout(size fyne.Size) {
	p := r.p
	before := p.total
	if size.Width > 0 {
		p.layoutAt(size.Width)
		p.body.Resize(fyne.NewSize(size.Width, max(p.total, size.Height)))
	}
	p.scroll.Resize(size)
	if p.total != before {
		p.scroll.Refresh() // the offset stays within the new height
	}
	p.place()
}

// MinSize is narrow (the rows wrap to any width) and short: the page
// scrolls.
func (r *diffPageRenderer) MinSize() fyne.Size {
	return fyne.NewSize(diffCell().Width*minDiffCols, diffCell().Height*4)
}

func (r *diffPageRenderer) Refresh() { r.p.place() }

func (r *diffPageRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.p.scroll} }

func (r *diffPageRenderer) Destroy() {}

// pageBody is the page's content inside its scroll: as tall as every
// block, holding only the objects in view, placed by the page.
type pageBody struct {
	widget.BaseWidget
	p       *diffPage
	objects []fyne.CanvasObject
}

func newPageBody(p *diffPage) *pageBody {
	b := &pageBody{p: p}
	b.ExtendBaseWidget(b)
	return b
}

// CreateRenderer implements fyne.Widget.
func (b *pageBody) CreateRenderer() fyne.WidgetRenderer { return &pageBodyRenderer{b: b} }

type pageBodyRenderer struct{ b *pageBody }

// Layout does nothing: the page places the objects in view.
func (r *pageBodyRenderer) Layout(fyne.Size) {}

func (r *pageBodyRenderer) MinSize() fyne.Size {
	return fyne.NewSize(diffCell().Width*minDiffCols, r.b.p.total)
}

func (r *pageBodyRenderer) Refresh() {
	for _, o := range r.b.objects {
		o.Refresh()
	}
}

func (r *pageBodyRenderer) Objects() []fyne.CanvasObject { return r.b.objects }

func (r *pageBodyRenderer) Destroy() {}

// rowsPiece shows a chunk of a block's wrapped rows: a diffGrid whose
// rows come wrapped.
type rowsPiece = diffGrid

// newRowsPiece shows rows, the wrapped rows of a block from row from on,
// with the strikes of the block that fall in them.
func newRowsPiece(rows []widget.TextGridRow, strikes []strike, from int) *rowsPiece {
	g := &diffGrid{grid: widget.NewTextGrid(), fixed: true}
	g.grid.Scroll = fyne.ScrollNone
	g.grid.Rows = rows
	for _, s := range strikes {
		if s.row >= from && s.row < from+len(rows) {
			g.strikes = append(g.strikes, strike{row: s.row - from, from: s.from, to: s.to})
		}
	}
	g.ExtendBaseWidget(g)
	return g
}
