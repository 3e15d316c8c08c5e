package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// LoadFonts loads the font faces of the window's first frame on another
// goroutine and returns a channel closed once they are all loaded. Fyne
// parses a style's fonts (with its emoji font and the system's fallback
// for the language) the first time it measures text in that style, 15–80
// ms of CPU each; loaded here, that overlaps the rest of the start. One
// goroutine loads the styles one after the other: on two cores, a
// goroutine a style left the main goroutine (GLFW's start, the window)
// fewer turns, and the first UI answer came later (issue 24: 1.38× the
// minimal window against 1.33×, six alternating runs); the fonts are
// still loaded well before the window needs them. Call it once the app
// and its theme are set, and hand the channel to New (Options.Fonts),
// which waits for it before it measures any text: Fyne's font faces are
// not safe for concurrent use, so from then on only the main goroutine
// uses them. Safe to call from any goroutine.
func LoadFonts() <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		// The text styles the window's first frame draws: labels, buttons
		// and tab titles (bold), and the Eval pane's code.
		for _, style := range []fyne.TextStyle{{}, {Bold: true}, {Monospace: true}} {
			fyne.MeasureText("", theme.TextSize(), style)
		}
	}()
	return done
}
