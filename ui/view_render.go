package ui

import "fyne.io/fyne/v2"

// fileViewRenderer draws a fileView: its Scroll, filled edge to edge.
type fileViewRenderer struct{ v *fileView }

func (r fileViewRenderer) Layout(size fyne.Size) {
	r.v.scroll.Resize(size)
	r.v.place()
	r.v.reveal()
}

func (r fileViewRenderer) MinSize() fyne.Size {
	return r.v.scroll.MinSize()
}

// Refresh redraws the rows only when the theme's colours changed.
func (r fileViewRenderer) Refresh() {
	if !r.v.updateStyles() {
		return
	}
	r.v.place()
	r.v.scroll.Refresh()
}

func (r fileViewRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.v.scroll}
}

func (r fileViewRenderer) Destroy() {}
