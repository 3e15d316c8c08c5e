package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// minTranscriptRows is how many rows of the transcript the Agent pane
// must show at the window's default size with a change set's review open:
// the transcript is what the person reads; its controls must not take
// its height.
const minTranscriptRows = 5

// TestAgentPaneTranscriptKeepsItsHeight: at the default window size
// (1100x720) and at 1024x640, with a change set's review open in the
// editor area and the Agent pane shown, the transcript gets the pane's
// height beyond its controls: at least minTranscriptRows rows at the
// default size, one fewer at 1024x640, and more than its controls at
// either size. On the old layout (two rows of controls, the prompt, Send
// and Cancel stacked, the status under them) it had one row at both. Every
// control stays inside the pane at its least size, and the status shows.
func TestAgentPaneTranscriptKeepsItsHeight(t *testing.T) {
	for _, tt := range []struct {
		name    string
		size    fyne.Size
		minRows int
	}{
		{name: "default 1100x720", size: fyne.NewSize(1100, 720), minRows: minTranscriptRows},
		{name: "1024x640", size: fyne.NewSize(1024, 640), minRows: minTranscriptRows - 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := goldenWindow(t)
			w.win.Resize(tt.size)
			id := goldenChangeSet(t, w)
			if !w.review.showSet(id) {
				t.Fatalf("change set %s not shown", id)
			}
			h := w.panes.agent
			w.panes.show(h)
			for i := range 30 {
				h.pane.Note(fmt.Sprintf("note %d", i))
			}
			h.pane.SetState(h.pane.State(), "Choose an agent and press Start: it works in a sandboxed copy of the project, "+
				"and what it writes becomes a change set for you to review.")
			w.win.Content().Refresh()

			list := findObject[*widget.List](t, h.pane.Content)
			rows := h.pane.VisibleRows()
			t.Logf("at %v the pane is %v, its transcript %v: %d rows (%v)", tt.size, h.pane.Content.Size(), list.Size(), rows, list.MinSize())
			if rows < tt.minRows {
				t.Errorf("at %v the transcript shows %d rows (%v px of the pane's %v), want at least %d",
					tt.size, rows, list.Size().Height, h.pane.Content.Size().Height, tt.minRows)
			}
			if controls := h.pane.Content.Size().Height - list.Size().Height; list.Size().Height < controls {
				t.Errorf("at %v the transcript has %v px and the controls %v px", tt.size, list.Size().Height, controls)
			}
			paneAt := fyne.CurrentApp().Driver().AbsolutePositionForObject(h.pane.Content)
			paneSize := h.pane.Content.Size()
			for name, o := range map[string]fyne.CanvasObject{"Agent": h.pane.Agent, "Command": h.pane.Command,
				"Start": h.pane.Start, "Stop": h.pane.Stop, "New session": h.pane.New, "Agents…": h.pane.Agents,
				"Prompt": h.pane.Prompt, "Send": h.pane.Send, "Cancel": h.pane.Cancel} {
				at := fyne.CurrentApp().Driver().AbsolutePositionForObject(o).Subtract(paneAt)
				if at.X < 0 || at.Y < 0 || at.X+o.Size().Width > paneSize.Width+0.5 || at.Y+o.Size().Height > paneSize.Height+0.5 ||
					o.Size().Width < o.MinSize().Width-0.5 || o.Size().Height < o.MinSize().Height-0.5 {
					t.Errorf("%s is at %v, %v in the pane of %v (it needs %v)", name, at, o.Size(), paneSize, o.MinSize())
				}
			}
			if got := strings.Join(shownTexts(h.pane.Content), "|"); !strings.Contains(got, "Choose an agent") {
				t.Errorf("the pane's status is not shown: %q", got)
			}
		})
	}
}

// shownTexts are the texts of the labels and rich texts under o.
func shownTexts(o fyne.CanvasObject) []string {
	var out []string
	switch v := o.(type) {
	case *widget.Label:
		return []string{v.Text}
	case *widget.RichText:
		return []string{v.String()}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(v).Objects() {
			out = append(out, shownTexts(c)...)
		}
	case *fyne.Container:
		for _, c := range v.Objects {
			out = append(out, shownTexts(c)...)
		}
	}
	return out
}
