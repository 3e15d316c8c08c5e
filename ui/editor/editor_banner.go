package editor

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// BannerAction is one button of an editor banner.
type BannerAction struct {
	Label string
	Do    func() // nil: only dismiss
}

// editorBanner is the strip over an editor that says something happened
// to its file (it changed or was deleted on disk) and offers what to do.
// Main goroutine only.
type editorBanner struct {
	box      *fyne.Container // hidden when there is nothing to say
	message  *widget.Label
	buttons  *fyne.Container
	relayout func() // lays out what holds box after it shows or hides
}

func newEditorBanner(relayout func()) *editorBanner {
	b := &editorBanner{message: widget.NewLabel(""), buttons: container.NewHBox(), relayout: relayout}
	b.message.Truncation = fyne.TextTruncateEllipsis
	bg := canvas.NewRectangle(bannerColor())
	b.box = container.NewStack(bg, container.NewBorder(nil, nil, nil, b.buttons, b.message))
	b.box.Hide()
	return b
}

// bannerColor is the theme's warning colour, faint enough to read text on.
func bannerColor() color.Color {
	c := nrgba(theme.Color(theme.ColorNameWarning))
	c.A = 0x40
	return c
}

// show says msg with a button for each action. Any button hides the
// banner before its action runs.
func (b *editorBanner) show(msg string, actions ...BannerAction) {
	b.message.SetText(msg)
	b.buttons.Objects = b.buttons.Objects[:0]
	for i, a := range actions {
		btn := widget.NewButton(a.Label, func() {
			b.hide()
			if a.Do != nil {
				a.Do()
			}
		})
		if i == 0 {
			btn.Importance = widget.HighImportance
		}
		b.buttons.Add(btn)
	}
	b.box.Show()
	b.box.Refresh()
	b.relayout()
}

// hide hides the banner.
func (b *editorBanner) hide() {
	if b.box.Visible() {
		b.box.Hide()
		b.relayout()
	}
}

// shown returns the banner's message, or "" when it is hidden.
func (b *editorBanner) shown() string {
	if !b.box.Visible() {
		return ""
	}
	return b.message.Text
}
