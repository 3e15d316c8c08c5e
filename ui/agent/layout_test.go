package agent

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TestDenseThemeAppliedOnce: the transcript and the status line are drawn
// in the dense theme, and refreshing the tabs around the pane, switching
// tabs, a relayout of the status and new transcript rows do not apply it
// again. Each application of a theme override clears Fyne's app-wide
// caches of text sizes and icons, so that the whole window measures its
// text again (see denseBox); Fyne makes a new scope, and so a new theme
// value, at each one.
func TestDenseThemeAppliedOnce(t *testing.T) {
	test.NewTempApp(t)
	p := New("scripted-agent")
	p.Note("a first line")
	tabs := container.NewAppTabs(container.NewTabItem("Agent", p.Content), container.NewTabItem("Run", widget.NewLabel("run")))
	w := test.NewWindow(tabs)
	defer w.Close()
	w.Resize(fyne.NewSize(900, 400))

	status := theme.CurrentForWidget(p.status)
	if got := status.Size(theme.SizeNamePadding); got != 2 {
		t.Fatalf("the status line's padding is %v, want the dense theme's 2", got)
	}
	pitch := p.rowPitch()

	tabs.Refresh()
	tabs.SelectIndex(1)
	tabs.SelectIndex(0)
	w.Content().Refresh()
	p.status.setWhole(true)
	p.status.setWhole(false)
	p.Note("a second line")

	if theme.CurrentForWidget(p.status) != status {
		t.Fatal("a refresh applied the pane's dense theme again: each application makes Fyne measure every text of the window again")
	}
	if got := p.rowPitch(); got != pitch {
		t.Fatalf("a transcript row's pitch went from %v to %v", pitch, got)
	}
	if p.VisibleRows() < minTranscriptRows {
		t.Fatalf("the transcript shows %d rows, want at least %d", p.VisibleRows(), minTranscriptRows)
	}
}
