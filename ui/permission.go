package ui

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app/permission"
	"trestle/app/project"
	"trestle/app/textbuf"
)

// AskBound is how long the permission dialog waits for the person before
// the request counts as denied: long enough to read some code, short
// enough that an agent is not left hanging.
const AskBound = 25 * time.Second

// maxAskBytes is the most a request may hold (code or command, with its
// environment) for the dialog to offer Allow. The dialog shows all of what
// runs; past this nobody reads it all, so it offers only Deny.
const maxAskBytes = 256 << 10

// askArm is how long the Allow buttons stay disabled after the dialog
// appears: a click or key meant for something else (a dialog that popped
// up under the pointer, right after another) must not allow code the
// person never saw.
const askArm = 700 * time.Millisecond

// Ask shows the person an agent's request to evaluate code or run a task
// and waits for Allow once, Allow for this session or Deny. No answer
// within AskBound (or ctx ending) closes the dialog and denies. One dialog
// shows at a time: a request that comes while another is shown waits its
// turn (up to AskBound), so dialogs never stack under the pointer. Safe for
// concurrent use from any goroutine except the main one.
func (w *Window) Ask(ctx context.Context, req permission.Request) (permission.Decision, error) {
	return askModal(ctx, w, permission.Deny, func(answer chan<- permission.Decision) dialog.Dialog {
		return w.asks.show(req, answer)
	})
}

// askUI is the window's part for the modal questions agents wait on: the
// permission dialog (Ask) and the unsaved files question before an
// agent's run (unsaved.go), one at a time. It reaches the window's
// status bar and dialogs through w.
type askUI struct {
	w *Window
	// turn is the turn to show a question, one at a time: a channel with
	// room for one. Any goroutine.
	turn chan struct{}
}

// askModal shows the dialog show builds (on the main goroutine) when it is
// its turn among w's questions (askUI), and returns the one answer the
// dialog sends, or none when the turn does not come within AskBound, the
// answer does not come within AskBound (the dialog is then hidden), or
// ctx ends. One such dialog
// shows at a time per window. Safe for concurrent use from any goroutine
// except the main one.
func askModal[T any](ctx context.Context, w *Window, none T, show func(answer chan<- T) dialog.Dialog) (T, error) {
	turn := w.asks.turn
	wait := time.NewTimer(AskBound)
	defer wait.Stop()
	select {
	case turn <- struct{}{}:
		defer func() { <-turn }()
	case <-wait.C:
		return none, nil
	case <-ctx.Done():
		return none, nil
	}
	answer := make(chan T, 1)
	var d dialog.Dialog
	if err := w.main.call(ctx, 0, func() { d = show(answer) }); err != nil {
		return none, err
	}
	timer := time.NewTimer(AskBound)
	defer timer.Stop()
	select {
	case a := <-answer:
		return a, nil
	case <-timer.C:
	case <-ctx.Done():
	}
	w.onMain(d.Hide)
	return none, nil
}

// show builds and shows the permission dialog: who asks, the size of
// what would run, the environment and tags it adds, and all of the code or
// command (scrollable, monospace, invisible characters shown). Its highlighted
// choice is "Allow once", never the broader "Allow for this session".
// Main goroutine only.
func (a *askUI) show(req permission.Request, answer chan<- permission.Decision) dialog.Dialog {
	w := a.w
	var d dialog.Dialog
	var arm *time.Timer // enables the Allow buttons, when they are offered
	disarm := func() {
		if arm != nil {
			arm.Stop()
		}
	}
	reply := func(dec permission.Decision) func() {
		return func() {
			disarm()
			select {
			case answer <- dec:
			default:
			}
			d.Hide()
		}
	}
	deny := newEscButton("Deny", reply(permission.Deny))
	once := newEscButton("Allow once", reply(permission.AllowOnce))
	once.Importance = widget.HighImportance
	session := newEscButton("Allow for this session", reply(permission.AllowSession))
	buttons := container.NewHBox(deny)
	top := container.NewVBox(widget.NewLabel(fmt.Sprintf("%s asks to %s:", req.Client, askVerb(req.Kind))))
	if size := askSize(req); size > maxAskBytes {
		top.Add(warning(fmt.Sprintf("This request is %s, more than the %s this dialog can show in full, so it can "+
			"only be denied. Ask the agent for something smaller.", byteSize(size), byteSize(maxAskBytes))))
	} else {
		once.Disable()
		session.Disable()
		buttons.Add(once)
		buttons.Add(session)
		arm = w.main.after(askArm, func() { once.Enable(); session.Enable() })
	}
	shown, hidden := visibleText(req.Detail)
	top.Add(widget.NewLabel(describeSize(req, hidden)))
	var center fyne.CanvasObject = newAskView(shown, true)
	if env := askContext(req); env != "" {
		top.Add(warning(fmt.Sprintf("It runs with what selection %q adds; a program named here runs too:", req.Selection)))
		envShown, _ := visibleText(env)
		split := container.NewVSplit(newAskView(envShown, false), center)
		split.Offset = 0.3
		center = split
	}
	body := container.NewBorder(top, container.NewCenter(buttons), nil, nil, center)
	d = dialog.NewCustomWithoutButtons("Agent request", body, w.win)
	waiting := fmt.Sprintf("%s is waiting for your answer", req.Client)
	d.SetOnClosed(func() {
		disarm()
		select {
		case answer <- permission.Deny: // closed without a choice (Escape, the bound): denied
		default:
		}
		if w.status.message.Text == waiting {
			w.status.message.SetText("") // answered: no longer waiting
		}
	})
	d.Resize(askDialogSize(w.win.Canvas().Size()))
	w.dialogs.show(d)
	w.status.notify(waiting)
	return d
}

func askVerb(kind string) string {
	switch kind {
	case "evaluate":
		return "evaluate this Go code"
	case permission.KindRestart:
		return "restart an evaluator, which drops its state"
	}
	return kind + " this command"
}

// askWrap is how many characters a row of the dialog's text holds; a
// longer line goes on in rows marked "+". Rows never cut text off: the view
// scrolls sideways when the dialog is narrower.
const askWrap = 120

// askGutter is the width of a row's line number column.
const askGutter = 7

// askRow is one display row of a request's text: a line's number (0 for
// the rows that go on with a long line) and up to askWrap characters.
type askRow struct {
	line int
	text string
}

// askRows cuts text into display rows, with tabs expanded. A final
// newline starts no row, as project.CountLines counts.
func askRows(text string) []askRow {
	var rows []askRow
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		runes := textbuf.ExpandTabs(nil, line, textbuf.DefaultTabWidth)
		rows = append(rows, askRow{line: i + 1, text: string(runes[:min(len(runes), askWrap)])})
		for at := askWrap; at < len(runes); at += askWrap {
			rows = append(rows, askRow{text: string(runes[at:min(len(runes), at+askWrap)])})
		}
	}
	return rows
}

// String is the row as shown, with its line number (or "+") in the gutter.
func (r askRow) String(numbered bool) string {
	switch {
	case !numbered:
		return r.text
	case r.line == 0:
		return fmt.Sprintf("%*s  %s", askGutter-2, "+", r.text)
	}
	return fmt.Sprintf("%*d  %s", askGutter-2, r.line, r.text)
}

// newAskView shows text in monospace rows: a list, so only the rows in view
// are drawn (256 KiB of code draws as fast as one line), inside a sideways
// scroll wide enough for a whole row.
func newAskView(text string, numbered bool) fyne.CanvasObject {
	rows := askRows(text)
	mono := fyne.TextStyle{Monospace: true}
	list := newEscList(
		func() int { return len(rows) },
		func() fyne.CanvasObject {
			return widget.NewLabelWithStyle(strings.Repeat("M", askWrap+askGutter), fyne.TextAlignLeading, mono)
		},
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(rows[id].String(numbered)) },
	)
	list.HideSeparators = true
	return container.NewHScroll(list)
}

// askDialogSize is most of the window, so long code shows as much as it can.
func askDialogSize(win fyne.Size) fyne.Size {
	return fyne.NewSize(max(640, win.Width*0.85), max(420, win.Height*0.85))
}

func warning(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.WarningImportance
	return l
}

// askContext is the environment, tags, folder and preloads of req, one per
// line; "" when it adds none.
func askContext(req permission.Request) string {
	var b strings.Builder
	for _, kv := range req.Env {
		fmt.Fprintf(&b, "env   %s\n", kv)
	}
	if len(req.Tags) > 0 {
		fmt.Fprintf(&b, "tags  %s\n", strings.Join(req.Tags, ","))
	}
	if req.Dir != "" {
		fmt.Fprintf(&b, "in    %s\n", req.Dir)
	}
	for _, p := range req.Preload {
		fmt.Fprintf(&b, "first imports %s (its init code runs)\n", p)
	}
	for _, p := range req.Initialises {
		fmt.Fprintf(&b, "initialises %s (the project's package: its init code runs)\n", p)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// askSize is the bytes of what the person must read to decide.
func askSize(req permission.Request) int {
	return len(req.Detail) + len(askContext(req))
}

func describeSize(req permission.Request, hidden int) string {
	what := "The command"
	if req.Kind == "evaluate" {
		what = "The code"
	}
	lines := project.CountLines(req.Detail)
	s := fmt.Sprintf("%s: %s, %d line%s, all shown below (scroll to read it all).", what, byteSize(len(req.Detail)), lines, plural(lines))
	if hidden > 0 {
		s += fmt.Sprintf(" It holds %d invisible or control character%s, shown in «».", hidden, plural(hidden))
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// visibleText is s with every character that would not show as itself made
// visible, in guillemets the theme's fonts always have: C0 controls by name
// («ESC», «CR», «NUL»), other controls, bidi overrides and isolates and
// zero-width characters by code point («U+202E»), invalid UTF-8 by byte
// («0xFF»). Tabs and newlines stay. It returns how many it changed.
func visibleText(s string) (string, int) {
	var b strings.Builder
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "«0x%02X»", s[i])
			n++
		case r == '\t' || r == '\n':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "«%s»", controlName(r))
			n++
		case hiddenRune(r):
			fmt.Fprintf(&b, "«U+%04X»", r)
			n++
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String(), n
}

// controlName is the ASCII name of a C0 control or DEL.
func controlName(r rune) string {
	const names = "NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US"
	if r == 0x7f {
		return "DEL"
	}
	return strings.Fields(names)[r]
}

// hiddenRune reports whether r draws as nothing, or reorders the text
// around it (Trojan Source: bidi overrides make code read unlike it runs).
func hiddenRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f, // C1 controls
		r >= 0x200b && r <= 0x200f, // zero-width spaces and joiners, LRM, RLM
		r >= 0x202a && r <= 0x202e, // bidi embeddings and overrides
		r >= 0x2060 && r <= 0x2069, // word joiner, invisible operators, bidi isolates
		r == 0x061c, r == 0xfeff, r == 0x00ad, r == 0x180e:
		return true
	}
	return false
}
