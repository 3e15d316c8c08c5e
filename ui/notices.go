package ui

import (
	"fmt"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// toastLifetime is how long a toast shows before it fades: time to read
// two sentences, short enough that a burst of notices does not pile up
// over the editor. Hovering a toast holds it; tapping it keeps it.
const toastLifetime = 6 * time.Second

// toastFade is how long a toast takes to fade out: long enough to be seen
// going (so the person knows where it went: the bell), short enough not
// to linger.
const toastFade = 700 * time.Millisecond

// maxToasts is how many toasts show at once: a newer one pushes the
// oldest out (it stays in the list), so four notices never need four
// clicks.
const maxToasts = 3

// maxNotices is how many notices the list keeps, the newest.
const maxNotices = 100

// toastWidth is a toast's width, and toastText how much of its message it
// shows (the list shows it whole).
const (
	toastWidth = 380
	toastText  = 280
)

// notice is one message from an agent.
type notice struct {
	client, message string
	changeSet       string // the change set it names, or ""
	at              time.Time
	seen            bool // the person looked at it: opened the list, dismissed or reviewed it
}

// noticeCenter holds the agents' notices: the list behind the status bar's
// bell, whose count is those not seen yet, and the toasts over the
// window's content. Main goroutine only.
type noticeCenter struct {
	list   []*notice // oldest first
	bell   *widget.Button
	layer  *fyne.Container // the toasts, bottom right over the content; taps elsewhere pass through
	toasts []*toast        // oldest first
	popup  *widget.PopUp   // the list, while it shows
	win    fyne.Window
	// dialogs are the window's, whose Escape closes the list (escape.go).
	dialogs *dialogStack
	review  func(id string) // opens a change set for review (the window's)
	// after runs fn on the main goroutine once d has passed and returns
	// what cancels it: time.AfterFunc with fyne.Do. Tests hold the calls,
	// since Fyne's test driver would run fyne.Do on the timer's goroutine.
	after func(d time.Duration, fn func()) (stop func())
	// animate calls tick on the main goroutine with the fraction of d
	// gone, from 0 to 1 (last), and returns what stops it: a Fyne
	// animation. Fyne's test driver ticks 1 at once; tests may hold the
	// ticks.
	animate func(d time.Duration, tick func(done float32)) (stop func())
}

func newNoticeCenter(win fyne.Window, review func(id string)) *noticeCenter {
	c := &noticeCenter{win: win, review: review, after: (*mainThread)(nil).afterStop, animate: animateOnMain}
	c.bell = widget.NewButtonWithIcon("", bellIcon, c.showList)
	c.layer = container.New(toastLayout{})
	c.update()
	return c
}

// add keeps n in the list and shows it as a toast.
func (c *noticeCenter) add(n notice) {
	p := &n
	c.list = append(c.list, p)
	if over := len(c.list) - maxNotices; over > 0 {
		c.list = append(c.list[:0:0], c.list[over:]...)
	}
	if len(c.toasts) == maxToasts {
		c.removeToast(c.toasts[0])
	}
	t := &toast{n: p, stop: func() {}}
	t.box = c.toastBox(t)
	c.live(t)
	c.toasts = append(c.toasts, t)
	c.layer.Add(t.box)
	c.update()
}

// toastBox draws t: who sent it, the start of the message, and Review when
// it names a change set; × dismisses it.
func (c *noticeCenter) toastBox(t *toast) fyne.CanvasObject {
	n := t.n
	title := widget.NewLabelWithStyle("Message from "+n.client, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Truncation = fyne.TextTruncateEllipsis
	closeBtn := widget.NewButtonWithIcon("", theme.CancelIcon(), func() {
		n.seen = true
		c.removeToast(t)
	})
	closeBtn.Importance = widget.LowImportance
	text := widget.NewLabel(cut(n.message, toastText))
	text.Wrapping = fyne.TextWrapWord
	rows := []fyne.CanvasObject{container.NewBorder(nil, nil, nil, closeBtn, title), text}
	if n.changeSet != "" {
		rows = append(rows, container.NewHBox(layout.NewSpacer(), c.reviewButton(n, func() { c.removeToast(t) })))
	}
	return c.toastCard(t, container.NewVBox(rows...))
}

// reviewButton opens n's change set, after done.
func (c *noticeCenter) reviewButton(n *notice, done func()) *widget.Button {
	b := widget.NewButtonWithIcon("Review "+n.changeSet, theme.VisibilityIcon(), func() {
		n.seen = true
		done()
		c.update()
		if c.review != nil {
			c.review(n.changeSet)
		}
	})
	b.Importance = widget.HighImportance
	return b
}

// removeToast takes t off the screen; it stays in the list.
func (c *noticeCenter) removeToast(t *toast) {
	for i, x := range c.toasts {
		if x == t {
			t.stop()
			c.toasts = append(c.toasts[:i], c.toasts[i+1:]...)
			c.layer.Remove(t.box)
			break
		}
	}
	c.update()
}

// unread counts the notices not seen yet.
func (c *noticeCenter) unread() int {
	n := 0
	for _, x := range c.list {
		if !x.seen {
			n++
		}
	}
	return n
}

// update shows the unread count on the bell, highlighted while there is one.
func (c *noticeCenter) update() {
	n := c.unread()
	text, imp := "", widget.LowImportance
	if n > 0 {
		text, imp = strconv.Itoa(n), widget.HighImportance
	}
	if c.bell.Text != text || c.bell.Importance != imp {
		c.bell.Text, c.bell.Importance = text, imp
		c.bell.Refresh()
	}
}

// showList opens the notification list above the bell, newest first:
// every notice counts as seen, and the toasts go.
func (c *noticeCenter) showList() {
	for _, x := range c.list {
		x.seen = true
	}
	for len(c.toasts) > 0 {
		c.removeToast(c.toasts[0])
	}
	rows := container.NewVBox()
	for i := len(c.list) - 1; i >= 0; i-- {
		rows.Add(c.listRow(c.list[i]))
		rows.Add(widget.NewSeparator())
	}
	if len(c.list) == 0 {
		rows.Add(widget.NewLabel("No messages from agents yet."))
	}
	clearAll := widget.NewButton("Clear", func() {
		c.list = nil
		c.hideList()
		c.update()
	})
	head := container.NewBorder(nil, nil, nil, container.NewHBox(clearAll, widget.NewButtonWithIcon("", theme.CancelIcon(), c.hideList)),
		widget.NewLabelWithStyle("Messages from agents", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	scroll := container.NewVScroll(rows)
	size := fyne.NewSize(460, min(rows.MinSize().Height+8, 420))
	scroll.SetMinSize(size)
	c.popup = widget.NewPopUp(container.NewBorder(head, nil, nil, nil, scroll), c.win.Canvas())
	d := fyne.CurrentApp().Driver()
	at := d.AbsolutePositionForObject(c.bell)
	full := c.popup.MinSize()
	pos := fyne.NewPos(max(at.X+c.bell.Size().Width-full.Width, 0), max(at.Y-full.Height, 0))
	c.popup.ShowAtPosition(pos)
	c.dialogs.arm()
	c.update()
}

// listRow is one notice in the list: when and who, the whole message, and
// Review when it names a change set.
func (c *noticeCenter) listRow(n *notice) fyne.CanvasObject {
	who := widget.NewLabelWithStyle(fmt.Sprintf("%s  %s", n.at.Format("15:04:05"), n.client), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	who.Truncation = fyne.TextTruncateEllipsis // a client names itself: a long name must not widen the list
	text := widget.NewLabel(n.message)
	text.Wrapping = fyne.TextWrapWord
	if n.changeSet == "" {
		return container.NewVBox(who, text)
	}
	return container.NewVBox(container.NewBorder(nil, nil, nil, c.reviewButton(n, c.hideList), who), text)
}

func (c *noticeCenter) hideList() {
	if c.popup != nil {
		c.popup.Hide()
		c.popup = nil
	}
}

// stop cancels the toasts' timers: the window is closing.
func (c *noticeCenter) stop() {
	for _, t := range c.toasts {
		t.stop()
	}
}

// cut shortens s to at most n runes, marking the cut.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// toastLayout stacks toasts from the bottom right corner up, newest at the
// bottom, each toastWidth wide (or the width there is) and as tall as its
// text wrapped to that width.
type toastLayout struct{}

func (toastLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	pad := theme.Padding() * 2
	width := min(float32(toastWidth), size.Width-2*pad)
	y := size.Height - pad
	for i := len(objs) - 1; i >= 0; i-- {
		o := objs[i]
		o.Resize(fyne.NewSize(width, o.MinSize().Height))
		h := o.MinSize().Height // a wrapped label knows its height once it has its width
		y -= h
		o.Move(fyne.NewPos(size.Width-pad-width, y))
		o.Resize(fyne.NewSize(width, h))
		y -= pad
	}
}

// MinSize is nothing: the layer lies over the content and asks no room.
func (toastLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.Size{} }

// shadowLayout draws its first object as a shadow a little below and
// right of the others, which fill the size.
type shadowLayout struct{}

func (shadowLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for i, o := range objs {
		if i == 0 {
			o.Move(fyne.NewPos(2, 3))
		} else {
			o.Move(fyne.Position{})
		}
		o.Resize(size)
	}
}

func (shadowLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs[1:] {
		s = s.Max(o.MinSize())
	}
	return s
}

// bellIcon is the status bar's bell: Material Design's "notifications"
// icon (Apache 2.0, as Fyne's own icons), themed like them.
var bellIcon = theme.NewThemedResource(fyne.NewStaticResource("bell.svg", []byte(
	`<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">`+
		`<path d="M12 22c1.1 0 2-.9 2-2h-4c0 1.1.89 2 2 2zm6-6v-5c0-3.07-1.64-5.64-4.5-6.32V4c0-.83-.67-1.5-1.5-1.5s-1.5.67-1.5 1.5v.68C7.63 5.36 6 7.92 6 11v5l-2 2v1h16v-1l-2-2z"/></svg>`)))
