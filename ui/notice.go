package ui

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// maxNotice bounds what a notice shows.
const maxNotice = 2000

// Notice shows an agent's message to the person in a dismissable dialog
// that names the client, and in the status bar. One bounded main-thread
// call; safe for concurrent use from any goroutine but the main one.
func (w *Window) Notice(ctx context.Context, client, message string) error {
	if len(message) > maxNotice {
		message = message[:maxNotice] + "…"
	}
	return Call(ctx, 0, func() {
		text := widget.NewLabel(message)
		text.Wrapping = fyne.TextWrapWord
		d := dialog.NewCustom(fmt.Sprintf("Message from %s", client), "Dismiss", text, w.win)
		d.Resize(fyne.NewSize(480, 0))
		showDialog(w.win.Canvas(), d)
		w.status.notify(fmt.Sprintf("%s: %s", client, message))
	})
}
