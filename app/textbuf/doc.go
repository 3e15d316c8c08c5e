// Package textbuf is the editor's text model: a line buffer with undo and
// redo grouped by typing run, line-ending detection, tab expansion and word
// boundaries for display, find, and an incremental Go syntax highlighter on
// go/scanner.
//
// It is plain Go: it never imports Fyne and builds with CGO_ENABLED=0, so
// everything the editor does that is not drawing is tested here without a
// display. Nothing in it is safe for concurrent use; the editor uses it on
// the main goroutine only.
package textbuf
