package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"trestle/app/workbench"
)

// TestStatusBarCutsByPriorityAndShowsTheWholeText: at 1100 px the status
// bar's labels give way in order (the listener's address first, the
// evaluator's state last) instead of all being cut to a few letters; a cut
// label shows its whole text in a tip when the pointer rests on it, or
// when it is clicked, and the tip takes no keys from the window.
func TestStatusBarCutsByPriorityAndShowsTheWholeText(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n"})
	w.installActions(Actions{})
	w.win.Resize(fyne.NewSize(1100, 720))
	s := w.status
	s.project.SetText("~/src/go.etcd.io/bbolt")
	s.setBranch("main", true)
	s.eval.SetText("evaluator: not started")
	s.mcp.SetText(mcpText("127.0.0.1:43219", nil))
	s.agents.SetText(agentsText([]workbench.Client{{Name: "claude-code"}}, 0))
	s.gopls.SetText("gopls: loading packages")
	w.win.Content().Refresh()
	whole := func(l *tipLabel) bool { return !l.cut() }

	for _, l := range []*tipLabel{s.branch, s.agents} {
		if !whole(l) {
			t.Errorf("%q is cut to %v px (its text needs %v) while the listener's address is %v px", l.Text, l.Size().Width, naturalWidth(l), s.mcp.Size().Width)
		}
	}
	if !s.mcp.cut() {
		t.Fatalf("the listener's address is whole (%v px): the row is wide enough, the test needs a narrower one", s.mcp.Size().Width)
	}
	// A longer text later takes its room from the labels first in line.
	s.agents.SetText(agentsText([]workbench.Client{{Name: "claude-code"}, {Name: "cursor"}}, 0))
	if s.agents.cut() {
		t.Errorf("%q is cut to %v px after it grew", s.agents.Text, s.agents.Size().Width)
	}
	order := []*tipLabel{s.mcp, s.project, s.agents, s.branch, s.gopls, s.eval}
	for i, l := range order {
		for _, later := range order[i+1:] {
			if later.cut() && l.Size().Width > stubWidth()+0.5 {
				t.Errorf("%q is cut while %q, which gives way first, keeps %v px", later.Text, l.Text, l.Size().Width)
			}
		}
	}

	// The pointer rests on the cut label: its tip shows the whole text,
	// and the keyboard stays where it was (a pop-up would take the keys).
	w.OpenOnMain("a.go")
	w.loading.Wait()
	editor := w.tabs.activeEditor().Page()
	w.win.Canvas().Focus(editor)
	var pending func()
	for _, l := range s.labels() {
		l.later = func(_ time.Duration, fn func()) *time.Timer { pending = fn; return nil }
	}
	s.mcp.MouseIn(&desktop.MouseEvent{})
	if pending == nil {
		t.Fatal("resting on the label asks for no tip")
	}
	pending()
	if got := tipText(s); got != s.mcp.Text {
		t.Fatalf("the tip says %q, want %q", got, s.mcp.Text)
	}
	typeText(t, w.win, "x")
	if text, _ := w.tabs.activeEditor().Snapshot(); w.win.Canvas().Focused() != fyne.Focusable(editor) || !strings.HasPrefix(text, "x") {
		t.Errorf("with the tip shown the keyboard is in %T and the editor has %q", w.win.Canvas().Focused(), text)
	}
	s.mcp.MouseOut()
	if tipText(s) != "" {
		t.Fatal("the tip stays after the pointer left")
	}
	test.Tap(s.mcp)
	if got := tipText(s); got != s.mcp.Text {
		t.Fatalf("a click shows %q, want %q", got, s.mcp.Text)
	}
	test.Tap(s.mcp)
	if tipText(s) != "" {
		t.Fatal("a second click leaves the tip")
	}
	test.Tap(s.agents) // whole: no tip
	if tipText(s) != "" {
		t.Fatal("a label shown whole opens a tip")
	}
}

// tipText is the text of the tip the status bar shows, or "".
func tipText(s *statusBar) string {
	return strings.Join(labelTexts(s.tips), "\n")
}

// TestStatusBarKeepsTheCaretAndTheEngineWhole: at the default window size
// and at 1024x640, in an untrusted project (its button takes room too),
// with a message, a caret, a branch and the texts a person sees while an
// agent works, the caret, the bell, the selection and the evaluator's
// state show whole; the message gives way first, down to messageMin; the
// labels then in order (the listener's address, the project, the
// attached agents, the branch, gopls). At 1100 px gopls's state and the
// branch show whole too. Before, the message kept 30% of the row and
// every label, the evaluator's state too, was cut to two letters.
func TestStatusBarKeepsTheCaretAndTheEngineWhole(t *testing.T) {
	for _, tt := range []struct {
		name  string
		size  fyne.Size
		whole func(s *statusBar) []*tipLabel
	}{
		{"default 1100x720", fyne.NewSize(1100, 720), func(s *statusBar) []*tipLabel { return []*tipLabel{s.eval, s.gopls, s.branch} }},
		{"1024x640", fyne.NewSize(1024, 640), func(s *statusBar) []*tipLabel { return []*tipLabel{s.eval} }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := goldenWindow(t)
			w.win.Resize(tt.size)
			s := w.status
			s.trust.Show()
			s.setBranch("main", true)
			s.eval.SetText("evaluator: idle · native build ready")
			s.mcp.SetText(mcpText("127.0.0.1:43219", nil))
			s.agents.SetText(agentsText([]workbench.Client{{Name: "claude-code"}}, 0))
			s.gopls.SetText("gopls: ready")
			s.setCursor(1204, 37)
			s.notify("scripted-agent proposed Agent: work (cs-1), three files; review it in Change Sets")
			w.win.Content().Refresh()

			fits := func(name string, o fyne.CanvasObject) {
				t.Helper()
				if o.Size().Width+0.5 < o.MinSize().Width || o.Size().Height+0.5 < o.MinSize().Height {
					t.Errorf("the %s is %v, it needs %v", name, o.Size(), o.MinSize())
				}
			}
			fits("caret", s.cursor)
			fits("selection", s.selection)
			if s.cursor.Text != "Ln 1204, Col 37" {
				t.Errorf("the caret says %q", s.cursor.Text)
			}
			bar := s.bar.Size()
			for _, o := range []fyne.CanvasObject{s.cursor, s.trust} {
				at := fyne.CurrentApp().Driver().AbsolutePositionForObject(o).Subtract(fyne.CurrentApp().Driver().AbsolutePositionForObject(s.bar))
				if at.X < 0 || at.X+o.Size().Width > bar.Width+0.5 {
					t.Errorf("%T is at %v, %v in the bar of %v", o, at, o.Size(), bar)
				}
			}
			for _, l := range tt.whole(s) {
				if l.cut() {
					t.Errorf("%q is cut to %v px; it needs %v", l.Text, l.Size().Width, naturalWidth(l))
				}
			}
			if s.message.Size().Width+0.5 < messageMin {
				t.Errorf("the message has %v px, less than %v", s.message.Size().Width, messageMin)
			}
			order := []*tipLabel{s.mcp, s.project, s.agents, s.branch, s.gopls, s.eval}
			for i, l := range order {
				for _, later := range order[i+1:] {
					if later.cut() && l.Size().Width > stubWidth()+0.5 {
						t.Errorf("%q is cut while %q, which gives way first, keeps %v px", later.Text, l.Text, l.Size().Width)
					}
				}
			}
			for _, l := range s.labels() {
				t.Logf("%-40q %6.1f of %6.1f px", l.Text, l.Size().Width, naturalWidth(l))
			}
			t.Logf("message %v px, caret %v", s.message.Size().Width, s.cursor.Size())
		})
	}
}
