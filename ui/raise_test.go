package ui

import (
	"strings"
	"testing"
)

// TestOpenRecentOfARaisedProjectIsANotice: when the window that has the
// project open came to the front, Open Recent says so in the status bar,
// with no dialog to dismiss, and not that it opens a new window.
func TestOpenRecentOfARaisedProjectIsANotice(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n"})
	other := t.TempDir()
	w.installActions(Actions{OpenWindow: func(dir string) error {
		return raisedForTest(dir + " is open in Trestle window 42: brought it to the front")
	}})
	w.menu.build([]string{other})
	recent := menuItemNamed(t, w.win.MainMenu().Items[0], "Open Recent")
	recent.ChildMenu.Items[0].Action()
	if msg := dialogText(w.win); msg != "" {
		t.Fatalf("a dialog opened: %q", msg)
	}
	if got := w.status.message.Text; !strings.Contains(got, "window 42: brought it to the front") {
		t.Fatalf("status %q, want the notice that the window came to the front", got)
	}
	if strings.Contains(w.status.message.Text, "new window") {
		t.Fatalf("status %q says a new window opens", w.status.message.Text)
	}
}

// TestRaiseRunsOnTheMainGoroutine: Raise reaches the window through the
// bounded call and reports a closing window as busy.
func TestRaiseRunsOnTheMainGoroutine(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n"})
	if err := w.Raise(); err != nil {
		t.Fatalf("raise: %v", err)
	}
	w.main.close()
	if err := w.Raise(); err == nil || !strings.Contains(err.Error(), "closing") {
		t.Fatalf("raise of a closing window: %v", err)
	}
}

// raisedForTest is an error that says msg and wraps ErrProjectRaised, as
// cmd/trestle's is.
type raisedForTest string

func (r raisedForTest) Error() string { return string(r) }

func (r raisedForTest) Unwrap() error { return ErrProjectRaised }
