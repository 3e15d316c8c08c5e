// Package editor is Trestle's code editor widget: a text grid that draws
// only the rows in view (so a 100k-line file costs a screenful), with
// syntax colouring, find and replace, go to line, brackets, a git gutter,
// a banner for what happened to the file on disk, Ctrl+Enter to hand code
// to an evaluator, and, linked to gopls, diagnostics, hover, completion and
// signature help. The text model (buffer, undo, highlighting, find) is
// app/textbuf.
//
// The editor knows nothing of the window around it. It tells its host
// what happened through its On* callbacks, and a gopls-linked editor asks
// its Host where to go (definition, references, outline, rename) and how
// to run work off and back on the main goroutine.
//
// Like every Fyne widget, an Editor must be used on the main goroutine
// only. Nothing here writes to os.Stdout, touches a window, or imports
// fyne.io/fyne/v2/app.
package editor
