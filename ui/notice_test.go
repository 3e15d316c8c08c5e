package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// heldClock holds the toasts' timers for the test to fire.
type heldClock struct{ due []func() }

func (c *heldClock) after(_ time.Duration, fn func()) func() {
	stopped := false
	c.due = append(c.due, func() {
		if !stopped {
			fn()
		}
	})
	return func() { stopped = true }
}

// fire runs every timer due, as the time passing would.
func (c *heldClock) fire() {
	due := c.due
	c.due = nil
	for _, fn := range due {
		fn()
	}
}

// labelsIn is the text of every label drawn inside o.
func labelsIn(o fyne.CanvasObject) string {
	var b strings.Builder
	walkTree(o, func(o fyne.CanvasObject) bool {
		if l, ok := o.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
		return false
	})
	return b.String()
}

// TestNoticesDoNotStackDialogs: four notices open no dialog and need no
// click: at most maxToasts show, naming their client, and they go by
// themselves; the bell counts the four, and its list keeps them all.
func TestNoticesDoNotStackDialogs(t *testing.T) {
	w := newTestWindow(t)
	w.Window().Resize(fyne.NewSize(1000, 700))
	clock := &heldClock{}
	w.notices.after = clock.after
	for i := 1; i <= 4; i++ {
		if err := w.Notice(context.Background(), "claude-code", fmt.Sprintf("Notice %d: the tests pass.", i)); err != nil {
			t.Fatal(err)
		}
	}
	if o := w.win.Canvas().Overlays().Top(); o != nil {
		t.Fatalf("a notice opened an overlay (%T): it must not take the window", o)
	}
	if n := len(w.notices.layer.Objects); n != maxToasts {
		t.Fatalf("%d toasts show, want %d (the oldest gives way)", n, maxToasts)
	}
	shown := labelsIn(w.notices.layer)
	if strings.Contains(shown, "Notice 1:") || !strings.Contains(shown, "Notice 4:") || !strings.Contains(shown, "Message from claude-code") {
		t.Errorf("the toasts show %q; want notices 2-4, naming the client", shown)
	}
	if w.notices.bell.Text != "4" {
		t.Errorf("the bell shows %q, want 4 unread", w.notices.bell.Text)
	}

	clock.fire() // toastLifetime later
	if n := len(w.notices.layer.Objects); n != 0 {
		t.Fatalf("%d toasts still show after their lifetime", n)
	}
	if w.notices.bell.Text != "4" {
		t.Errorf("the bell shows %q after the toasts went; the four are still unread", w.notices.bell.Text)
	}

	test.Tap(w.notices.bell)
	list := w.win.Canvas().Overlays().Top()
	if list == nil {
		t.Fatal("the bell opened no list")
	}
	text := labelsIn(list)
	for i := 1; i <= 4; i++ {
		if !strings.Contains(text, fmt.Sprintf("Notice %d: the tests pass.", i)) {
			t.Errorf("the list lacks notice %d: %q", i, text)
		}
	}
	if strings.Index(text, "Notice 4:") > strings.Index(text, "Notice 1:") {
		t.Error("the list is not newest first")
	}
	if !strings.Contains(text, "claude-code") {
		t.Errorf("the list does not name the client: %q", text)
	}
	if w.notices.bell.Text != "" {
		t.Errorf("the bell shows %q once the list was opened, want no count", w.notices.bell.Text)
	}
}

// TestToastTypingGoesOn: a toast does not take the keyboard from the
// editor the person is typing in.
func TestToastTypingGoesOn(t *testing.T) {
	w := newTestWindow(t)
	e := openEditor(t, w, "main.go")
	test.Type(e.Page(), "a")
	if err := w.Notice(context.Background(), "claude-code", "Look at this."); err != nil {
		t.Fatal(err)
	}
	f := w.win.Canvas().Focused() // what the window hands the next key to
	if f != e.Page() {
		t.Fatalf("after a toast the keyboard is with %T, not the editor", f)
	}
	f.TypedRune('b')
	if got := e.Buffer().Line(0); !strings.HasPrefix(got, "ab") {
		t.Fatalf("after a toast the typing went elsewhere: line 1 is %q", got)
	}
}

// TestNoticeNamingAChangeSetOffersReview: a notice that names a change set
// has Review; it opens that set in the Change Sets pane and dismisses the
// toast. A notice naming none has no Review.
func TestNoticeNamingAChangeSetOffersReview(t *testing.T) {
	w, m := newChangesWindow(t)
	cs := proposeMain(t, w, m)
	startChanges(t, w, m)

	w.Notice(context.Background(), "claude-code", "Nothing to review here.")
	if b := buttonIn(w.notices.layer, "Review "+cs.ID); b != nil {
		t.Fatal("a notice naming no change set offers Review")
	}
	w.Notice(context.Background(), "claude-code", "Proposed "+cs.ID+" to fix the greeting.")
	b := buttonIn(w.notices.layer, "Review "+cs.ID)
	if b == nil {
		t.Fatalf("no Review button on a notice naming %s: %q", cs.ID, labelsIn(w.notices.layer))
	}
	test.Tap(b)
	if w.panes.tabs.Selected() != w.changes.Item() || w.tabs.docs.Selected() == nil || !strings.HasPrefix(w.tabs.docs.Selected().Text, "Review "+cs.ID) {
		t.Errorf("Review showed pane %q and editor tab %v, want the Change Sets pane and %s's review tab", w.panes.tabs.Selected().Text, w.tabs.docs.Selected(), cs.ID)
	}
	if n := len(w.notices.layer.Objects); n != 1 {
		t.Errorf("%d toasts after Review, want 1 (the reviewed one goes)", n)
	}
	if w.notices.bell.Text != "1" {
		t.Errorf("the bell shows %q, want 1 (the reviewed notice is seen)", w.notices.bell.Text)
	}
}
