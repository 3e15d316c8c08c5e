package ui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app/workbench"
)

// showCall opens one agent call from the Agents pane: who asked, when,
// how it ended, its whole arguments and the text it was answered. It must
// be called on the main goroutine.
func (w *Window) showCall(c workbench.ToolCall) {
	d := dialog.NewCustom(c.Tool+" — "+c.Client, "Close", callDetail(c), w.win)
	size := w.win.Canvas().Size()
	d.Resize(fyne.NewSize(min(size.Width-60, 820), min(size.Height-60, 560)))
	w.dialogs.show(d)
}

// callDetail is the body of a call's dialog. Agents' text is shown as it
// is, in monospace labels: a label draws control characters as nothing
// and runs no markup.
func callDetail(c workbench.ToolCall) fyne.CanvasObject {
	head := widget.NewLabel(fmt.Sprintf("%s · %s · %s · %s", c.Time.Format("15:04:05"), c.Client, c.State,
		c.Duration.Round(time.Millisecond/10)))
	section := func(title, text string) fyne.CanvasObject {
		if strings.TrimSpace(text) == "" {
			text = "(none)"
		}
		body := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
		body.Wrapping = fyne.TextWrapBreak
		return container.NewVBox(widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), body)
	}
	result := c.Result
	if c.State == "running" {
		result = "(still running)"
	}
	return container.NewBorder(head, nil, nil, nil,
		container.NewVScroll(container.NewVBox(section("Arguments", c.Arguments), section("Result", result))))
}
