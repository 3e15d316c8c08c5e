package ui

import (
	"context"
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
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
	w.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if w.win.Canvas().Overlays().Top() != nil {
		t.Error("Escape did not close the list")
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
	if w.panes.tabs.Selected() != w.review.view.Item() || w.tabs.docs.Selected() == nil || !strings.HasPrefix(w.tabs.docs.Selected().Text, "Review "+cs.ID) {
		t.Errorf("Review showed pane %q and editor tab %v, want the Change Sets pane and %s's review tab", w.panes.tabs.Selected().Text, w.tabs.docs.Selected(), cs.ID)
	}
	if n := len(w.notices.layer.Objects); n != 1 {
		t.Errorf("%d toasts after Review, want 1 (the reviewed one goes)", n)
	}
	if w.notices.bell.Text != "1" {
		t.Errorf("the bell shows %q, want 1 (the reviewed notice is seen)", w.notices.bell.Text)
	}
}

// heldAnimation holds the toasts' fades for the test to tick.
type heldAnimation struct{ ticks []func(float32) }

func (a *heldAnimation) animate(_ time.Duration, tick func(float32)) func() {
	stopped := false
	a.ticks = append(a.ticks, func(f float32) {
		if !stopped {
			tick(f)
		}
	})
	return func() { stopped = true }
}

// tick moves the latest fade to f.
func (a *heldAnimation) tick(t *testing.T, f float32) {
	t.Helper()
	if len(a.ticks) == 0 {
		t.Fatal("no fade started")
	}
	a.ticks[len(a.ticks)-1](f)
}

// alphaOf is c's alpha, 0-255.
func alphaOf(c color.Color) uint8 { return color.NRGBAModel.Convert(c).(color.NRGBA).A }

// textAlpha is the alpha of the drawn text s inside o: what the person
// sees of it.
func textAlpha(t *testing.T, o fyne.CanvasObject, s string) uint8 {
	t.Helper()
	var found *canvas.Text
	walkTree(o, func(o fyne.CanvasObject) bool {
		if x, ok := o.(*canvas.Text); ok && strings.Contains(x.Text, s) {
			found = x
		}
		return found != nil
	})
	if found == nil {
		t.Fatalf("no text %q drawn in the toast", s)
	}
	return alphaOf(found.Color)
}

// toastsWithHeldTime is a window whose toasts' timers and fades the test
// runs, and one notice on screen.
func toastsWithHeldTime(t *testing.T) (*Window, *heldClock, *heldAnimation, *toast) {
	w := newTestWindow(t)
	w.Window().Resize(fyne.NewSize(1000, 700))
	clock, anim := &heldClock{}, &heldAnimation{}
	w.notices.after, w.notices.animate = clock.after, anim.animate
	if err := w.Notice(context.Background(), "claude-code", "The tests pass."); err != nil {
		t.Fatal(err)
	}
	return w, clock, anim, w.notices.toasts[0]
}

// TestToastFadesOut: once its lifetime is over a toast fades (its
// background and its text lose strength together) and goes when the fade
// ends; the notice stays in the list.
func TestToastFadesOut(t *testing.T) {
	w, clock, anim, toast := toastsWithHeldTime(t)
	full := alphaOf(toast.bg.FillColor)
	text := textAlpha(t, toast.box, "The tests pass.")
	if full == 0 || text == 0 {
		t.Fatalf("a new toast is not drawn at full strength: background alpha %d, text alpha %d", full, text)
	}
	clock.fire()
	if len(w.notices.layer.Objects) != 1 {
		t.Fatal("the toast went at once when its lifetime was over, without fading")
	}
	anim.tick(t, 0.5)
	if a := alphaOf(toast.bg.FillColor); a < full/2-2 || a > full/2+2 {
		t.Errorf("half way through the fade the background's alpha is %d, want about %d", a, full/2)
	}
	if a := textAlpha(t, toast.box, "The tests pass."); a < text/2-2 || a > text/2+2 {
		t.Errorf("half way through the fade the text's alpha is %d, want about %d", a, text/2)
	}
	anim.tick(t, 1)
	if n := len(w.notices.layer.Objects); n != 0 {
		t.Fatalf("%d toasts show after the fade", n)
	}
	if len(w.notices.list) != 1 || w.notices.bell.Text != "1" {
		t.Errorf("after the fade the list has %d notices and the bell shows %q, want 1 and 1", len(w.notices.list), w.notices.bell.Text)
	}
}

// TestToastHoverHoldsAndTapKeeps: the pointer over a fading toast brings
// it back at full strength and stops the fade; leaving starts its lifetime
// again. Tapping it keeps it until dismissed.
func TestToastHoverHoldsAndTapKeeps(t *testing.T) {
	w, clock, anim, toast := toastsWithHeldTime(t)
	full := alphaOf(toast.bg.FillColor)
	card := toast.box.(*toastCard)
	clock.fire()
	anim.tick(t, 0.6)
	card.MouseIn(&desktop.MouseEvent{})
	if a := alphaOf(toast.bg.FillColor); a != full {
		t.Errorf("hovered, the toast's background alpha is %d, want %d", a, full)
	}
	anim.tick(t, 1) // the stopped fade
	if len(w.notices.layer.Objects) != 1 {
		t.Fatal("the fade went on under the pointer")
	}
	card.MouseOut()
	if len(clock.due) != 1 {
		t.Fatalf("leaving the toast started %d timers, want its lifetime", len(clock.due))
	}
	clock.fire()
	anim.tick(t, 1)
	if len(w.notices.layer.Objects) != 0 {
		t.Fatal("the toast did not go after its new lifetime")
	}

	if err := w.Notice(context.Background(), "claude-code", "Keep me."); err != nil {
		t.Fatal(err)
	}
	kept := w.notices.toasts[0]
	test.Tap(kept.box.(*toastCard))
	kept.box.(*toastCard).MouseOut()
	clock.fire()
	if len(anim.ticks) != 2 || len(w.notices.layer.Objects) != 1 {
		t.Fatalf("a tapped toast faded (%d fades) or went (%d toasts)", len(anim.ticks)-1, len(w.notices.layer.Objects))
	}
	if w.notices.bell.Text != "1" {
		t.Errorf("the bell shows %q; the tapped notice is seen, the faded one not", w.notices.bell.Text)
	}
	test.Tap(buttonIn(kept.box, "")) // ×, the only button without text
	if len(w.notices.layer.Objects) != 0 {
		t.Error("× did not dismiss the kept toast")
	}
}
