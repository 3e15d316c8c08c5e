package ui

import "context"

// Raise brings the window to the front and gives it the keyboard focus:
// another Trestle process was asked to open this window's project (its
// listener hears the request, see mcpbridge's focus.go). It runs on the
// main goroutine through the window's bounded call and returns an error
// wrapping errdefs.ErrBusy when the main goroutine did not take it within
// DefaultCallBound, or the window is closing. Not on the main goroutine.
func (w *Window) Raise() error {
	return w.main.call(context.Background(), 0, func() {
		w.win.Show() // maps it again if it was hidden
		w.win.RequestFocus()
	})
}
