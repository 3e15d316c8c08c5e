package ui

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app"
)

// AskBound is how long the permission dialog waits for the person before
// the request counts as denied: long enough to read some code, short
// enough that an agent is not left hanging.
const AskBound = 60 * time.Second

// maxShownDetail is how much of the code or command the dialog shows.
const maxShownDetail = 4000

// Ask shows the person an agent's request to evaluate code or run a task
// and waits for Allow once, Allow for this session or Deny. No answer
// within AskBound (or ctx ending) closes the dialog and denies. Safe for
// concurrent use from any goroutine except the main one.
func (w *Window) Ask(ctx context.Context, req app.PermissionRequest) (app.Decision, error) {
	answer := make(chan app.Decision, 1)
	var d dialog.Dialog
	err := Call(ctx, 0, func() { d = w.showAsk(req, answer) })
	if err != nil {
		return app.Deny, err
	}
	timer := time.NewTimer(AskBound)
	defer timer.Stop()
	select {
	case dec := <-answer:
		return dec, nil
	case <-timer.C:
	case <-ctx.Done():
	}
	fyne.Do(d.Hide)
	return app.Deny, nil
}

// showAsk builds and shows the dialog. Main goroutine only.
func (w *Window) showAsk(req app.PermissionRequest, answer chan<- app.Decision) dialog.Dialog {
	detail := req.Detail
	if len(detail) > maxShownDetail {
		detail = detail[:maxShownDetail] + "\n…"
	}
	code := widget.NewTextGridFromString(detail)
	code.Scroll = fyne.ScrollBoth
	title := fmt.Sprintf("%s asks to %s:", req.Client, req.Kind)
	var d dialog.Dialog
	reply := func(dec app.Decision) func() {
		return func() {
			select {
			case answer <- dec:
			default:
			}
			d.Hide()
		}
	}
	buttons := container.NewHBox(
		widget.NewButton("Deny", reply(app.Deny)),
		widget.NewButton("Allow once", reply(app.AllowOnce)),
		&widget.Button{Text: "Allow for this session", Importance: widget.HighImportance, OnTapped: reply(app.AllowSession)},
	)
	body := container.NewBorder(widget.NewLabel(title), container.NewCenter(buttons), nil, nil, code)
	d = dialog.NewCustomWithoutButtons("Agent request", body, w.win)
	d.SetOnClosed(func() {
		select {
		case answer <- app.Deny:
		default:
		}
	})
	d.Resize(fyne.NewSize(640, 360))
	d.Show()
	w.status.notify(fmt.Sprintf("%s is waiting for your answer", req.Client))
	return d
}
