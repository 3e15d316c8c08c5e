package ui

import (
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// LoadFonts loads the font faces of the window's first frame on other
// goroutines, one a style, and returns a channel closed once they are all
// loaded. Fyne parses a style's fonts (with its emoji font and the
// system's fallback for the language) the first time it measures text in
// that style, 50–80 ms of CPU each; loaded here, that overlaps the rest of
// the start and each other. Call it once the app and its theme are set,
// and hand the channel to New (Options.Fonts), which waits for it before
// it measures any text: Fyne's font faces are not safe for concurrent
// use, so from then on only the main goroutine uses them (each goroutine
// here only loads its own style's faces). Safe to call from any goroutine.
func LoadFonts() <-chan struct{} {
	done := make(chan struct{})
	var loading sync.WaitGroup
	// The text styles the window's first frame draws: labels, buttons and
	// tab titles (bold), and the Eval pane's code.
	for _, style := range []fyne.TextStyle{{}, {Bold: true}, {Monospace: true}} {
		loading.Go(func() { fyne.MeasureText("", theme.TextSize(), style) })
	}
	go func() {
		loading.Wait()
		close(done)
	}()
	return done
}
