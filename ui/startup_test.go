package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"trestle/internal/testfix"
)

// What makes the window's start cheap must not change what it shows.

// TestPaneTabsShowEveryPaneAtStart: the panes are put in the tab bar
// without drawing it once per pane (panes.append), and a pane added after
// it was drawn (panes.add) still gets its tab: the bar the window draws
// names every pane, the first one is shown, and the View menu still shows
// each pane.
func TestPaneTabsShowEveryPaneAtStart(t *testing.T) {
	w := newTestWindow(t)
	w.installActions(Actions{})
	w.win.Resize(fyne.NewSize(2400, 720)) // room for every tab in the bar
	w.panes.add(newAgentsPane())          // as showChangeSets adds the Change Sets pane, after the bar was drawn
	bar := drawnTexts(w.panes.tabs)
	for _, p := range w.panes.all {
		if !strings.Contains(bar, "|"+p.paneTitle()+"|") {
			t.Errorf("the tab bar shows %s; no tab for the %s pane", bar, p.paneTitle())
		}
	}
	if n := strings.Count(bar, "|Agents|"); n != 2 {
		t.Errorf("the tab bar shows %s: %d Agents tabs, want 2 (one added late)", bar, n)
	}
	if got := w.panes.selected(); got != w.panes.all[0] {
		t.Errorf("the %s pane is shown at start, want the first, %s", got.paneTitle(), w.panes.all[0].paneTitle())
	}
	for _, m := range w.win.MainMenu().Items {
		for _, it := range m.Items {
			if m.Label == "View" && it.Label == "Search Pane" {
				it.Action()
			}
		}
	}
	if w.panes.selected() != w.panes.search || w.win.Canvas().Focused() != w.panes.search.pattern {
		t.Errorf("View ▸ Search Pane: pane %T shown, keyboard in %T", w.panes.selected(), w.win.Canvas().Focused())
	}
}

// TestEvalInputHintOnceItHasAWidth: the Eval input's placeholder is set
// once the input has a width (set before, it was wrapped at width 0, a
// line per character); the window shows it as soon as the pane is laid out.
func TestEvalInputHintOnceItHasAWidth(t *testing.T) {
	test.NewTempApp(t)
	e := newEvalPane()
	if e.input.PlaceHolder != "" {
		t.Errorf("placeholder %q set before the input has a width", e.input.PlaceHolder)
	}
	w := test.NewWindow(e.paneContent())
	defer w.Close()
	w.Resize(fyne.NewSize(600, 200))
	if !strings.HasPrefix(e.input.PlaceHolder, "Go to evaluate") {
		t.Errorf("placeholder %q once laid out, want the Eval pane's hint", e.input.PlaceHolder)
	}
	if texts := drawnTexts(e.paneContent()); !strings.Contains(texts, "Go to evaluate") {
		t.Errorf("the input draws %s, not its hint", texts)
	}
	tw := newTestWindow(t) // the window's own Eval pane, shown first
	if !strings.HasPrefix(tw.panes.eval.input.PlaceHolder, "Go to evaluate") {
		t.Errorf("the window's Eval input has placeholder %q", tw.panes.eval.input.PlaceHolder)
	}
}

// drawnTexts is every text o draws (a pane's tab titles among them), each
// between bars.
func drawnTexts(o fyne.CanvasObject) string {
	texts := "|"
	for _, x := range test.LaidOutObjects(o) {
		if txt, ok := x.(*canvas.Text); ok {
			texts += txt.Text + "|"
		}
	}
	return texts
}

// TestLoadFontsThenNew: LoadFonts loads the first frame's fonts on its own
// goroutine and says when it is done; New waits for it, then measures on
// the main goroutine alone (under -race: no use of a face by two).
func TestLoadFontsThenNew(t *testing.T) {
	a := test.NewTempApp(t)
	done := LoadFonts()
	testfix.Wait(t, time.Minute, "LoadFonts to finish", func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	})
	w := New(a, newProject(t, map[string]string{"go.mod": "module example.com/f\n"}), Options{Fonts: done})
	t.Cleanup(func() { w.Window().Close(); w.main.close() })
	if size := fyne.MeasureText("func", theme.TextSize(), fyne.TextStyle{Monospace: true}); size.Width <= 0 {
		t.Errorf("monospace text measures %v after LoadFonts", size)
	}
}
