package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// LoadFonts loads the font faces of the window's first frame on another
// goroutine and returns a channel closed once they are loaded. Fyne
// parses a style's fonts (with its emoji font and the system's fallback
// for the language) the first time it measures text in that style, which
// took a fifth of a window's start on the main goroutine; loaded here,
// that overlaps the rest of the start on a second core. Call it once the
// app and its theme are set, and hand the channel to New (Options.Fonts),
// which waits for it before it measures any text: Fyne's font faces are
// not safe for concurrent use, so from then on only the main goroutine
// uses them. Safe to call from any goroutine.
func LoadFonts() <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		// The styles of the first frame: labels, and the Eval pane's code.
		for _, style := range []fyne.TextStyle{{}, {Monospace: true}} {
			fyne.MeasureText("", theme.TextSize(), style)
		}
	}()
	return done
}
