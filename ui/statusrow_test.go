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
// attached agents last) instead of all being cut to a few letters; a cut
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
	order := []*tipLabel{s.mcp, s.gopls, s.project, s.eval, s.branch, s.agents}
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
