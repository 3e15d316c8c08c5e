package agent

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The pane's layout: one row of controls at the top, the prompt with Send
// and Cancel at the bottom, and between them the transcript, which takes
// the rest of the height, with the status line under it. At the window's
// default size the pane sits at its least height (the bottom panes get
// what the tallest of them asks), so the transcript asks for
// minTranscriptRows rows: the old layout, with two rows of controls and
// Send, Cancel and the status stacked, left it one row.

// minTranscriptRows is how many rows of the transcript the pane asks room
// for.
const minTranscriptRows = 5

// layout puts the pane's widgets in place.
func (p *Pane) layout() fyne.CanvasObject {
	controls := container.NewHBox(p.Mode, p.Model, p.Earlier, p.Resume, p.Start, p.Stop, p.New, p.Agents)
	top := container.NewBorder(nil, nil, p.Agent, controls, p.Command)
	prompt := container.NewBorder(nil, nil, nil, container.NewVBox(container.NewHBox(p.Send, p.Cancel)), p.Prompt)
	// Each dense part is a theme override of its own: a layout inside one
	// may measure its padding with one theme and lay out with another.
	transcript := newDense(container.New(minRows{p}, p.newRowList()))
	status := newDense(p.status)
	p.sampleRow = newDense(p.list.CreateItem())
	reading := container.NewBorder(nil, status, nil, nil, transcript)
	p.status.relayout = reading.Refresh
	for _, d := range []*denseBox{transcript, status, p.sampleRow} {
		d.MinSize() // applies the theme now: see denseBox
	}
	return container.NewBorder(top, prompt, nil, nil, reading)
}

// denseBox shows its content in the dense theme, through a theme override
// it applies once. Fyne's ThemeOverride applies its theme again whenever
// it is refreshed, and each application clears Fyne's app-wide caches of
// text sizes and drawn icons once for every widget inside it
// (cache.ResetThemeCaches): every text of the window is then measured
// again, about 0.13 ms each. A refresh of the bottom panes' tabs reaches
// the pane's parts, so a start cleared them 90 times and measured 223 of
// its 353 texts again, 35–40 ms of the main goroutine, and the same
// happened at each later refresh of the tabs. So did the transcript's
// list at each of its refreshes, which makes a row to measure (a row made
// in a theme's scope applies it). A denseBox's refresh repaints its
// content and neither applies the theme again nor refreshes the list:
// dense asks the app's theme on every call, a change of the app's theme
// walks every widget (the box's too, through its renderer's objects), and
// the pane refreshes the list and the status line itself when they
// change. MinSize, called once the box is made, applies the theme while
// nothing else has been measured (the override's renderer applies it
// once more).
type denseBox struct {
	widget.BaseWidget
	over *container.ThemeOverride
}

func newDense(content fyne.CanvasObject) *denseBox {
	d := &denseBox{over: container.NewThemeOverride(content, dense{})}
	d.ExtendBaseWidget(d)
	return d
}

func (d *denseBox) CreateRenderer() fyne.WidgetRenderer { return denseRenderer{d.over} }

// denseRenderer lays out the override in all of the box; a refresh
// repaints it (see denseBox).
type denseRenderer struct{ over *container.ThemeOverride }

func (r denseRenderer) Layout(size fyne.Size) {
	r.over.Move(fyne.NewPos(0, 0))
	r.over.Resize(size)
}
func (r denseRenderer) MinSize() fyne.Size           { return r.over.MinSize() }
func (r denseRenderer) Refresh()                     { canvas.Refresh(r.over) }
func (r denseRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.over} }
func (denseRenderer) Destroy()                       {}

// dense is the theme of the transcript and the status line: the app's
// theme with less room around each line, as a terminal's, so that a pane
// a couple of hundred pixels high shows several rows (a row of the app's
// theme is 35 px, of which 16 are padding).
type dense struct{}

func (dense) Size(n fyne.ThemeSizeName) float32 {
	switch n {
	case theme.SizeNameInnerPadding, theme.SizeNamePadding:
		return 2
	}
	return appTheme().Size(n)
}

func (dense) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	return appTheme().Color(n, v)
}
func (dense) Font(s fyne.TextStyle) fyne.Resource     { return appTheme().Font(s) }
func (dense) Icon(n fyne.ThemeIconName) fyne.Resource { return appTheme().Icon(n) }

// appTheme is the app's theme as the person set it. (theme.Current is
// the theme being drawn with: dense itself, while it draws.)
func appTheme() fyne.Theme {
	if a := fyne.CurrentApp(); a != nil && a.Settings().Theme() != nil {
		return a.Settings().Theme()
	}
	return theme.DefaultTheme()
}

// rowPitch is the height of a transcript row with the gap to the next.
func (p *Pane) rowPitch() float32 {
	return p.sampleRow.MinSize().Height + dense{}.Size(theme.SizeNamePadding)
}

// VisibleRows is how many whole rows of the transcript the pane shows at
// its present size.
func (p *Pane) VisibleRows() int {
	rows := (p.list.Size().Height + dense{}.Size(theme.SizeNamePadding)) / p.rowPitch()
	return int(rows + 0.01) // a whole row's height summed in float32 may come out a hair short
}

// minRows lays out the transcript in all of its room and asks for
// minTranscriptRows rows of it.
type minRows struct{ p *Pane }

func (m minRows) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(minTranscriptRows)*m.p.rowPitch() - dense{}.Size(theme.SizeNamePadding)
	return objs[0].MinSize().Max(fyne.NewSize(0, h))
}

func (minRows) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(size)
}

// statusLine is the pane's status: one line, cut with an ellipsis when it
// is long; a tap shows it whole, wrapped over as many lines as it needs,
// and another tap cuts it again. Main goroutine only.
type statusLine struct {
	widget.Label
	whole bool
	// relayout lays the pane out again when the line's height changes.
	relayout func()
}

func newStatusLine() *statusLine {
	l := &statusLine{}
	l.Truncation = fyne.TextTruncateEllipsis
	l.ExtendBaseWidget(l)
	return l
}

// show shows text, cut to one line.
func (l *statusLine) show(text string) {
	if l.whole {
		l.setWhole(false)
	}
	l.SetText(text)
}

// Tapped implements fyne.Tappable: it shows the whole text, or cuts it.
func (l *statusLine) Tapped(*fyne.PointEvent) { l.setWhole(!l.whole) }

// Cursor implements desktop.Cursorable: the line can be clicked.
func (l *statusLine) Cursor() desktop.Cursor { return desktop.PointerCursor }

func (l *statusLine) setWhole(on bool) {
	l.whole = on
	l.Truncation, l.Wrapping = fyne.TextTruncateEllipsis, fyne.TextWrapOff
	if on {
		l.Truncation, l.Wrapping = fyne.TextTruncateOff, fyne.TextWrapWord
	}
	l.Refresh()
	if l.relayout != nil {
		l.relayout()
	}
}
