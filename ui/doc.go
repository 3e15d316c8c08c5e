// Package ui is Trestle's window: the file tree, the tabs where files open,
// the status bar, and the bounded main-thread call through which everything
// outside the window (the MCP tools above all) reaches it.
//
// The threading rule: widgets are touched only on Fyne's main goroutine.
// Another goroutine changes the window through fyne.Do, and a caller that
// needs an answer goes through Call, which gives up after a bound and
// returns errdefs.ErrBusy. File I/O happens before the call, never inside it.
//
// ui must never import fyne.io/fyne/v2/app (only cmd/trestle creates the
// Fyne application), touch a widget off the main goroutine, or call
// fyne.DoAndWait (from the main goroutine it deadlocks).
package ui
