package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"trestle/app/textbuf"
)

// navPlace is a caret position in a file, for back and forward.
type navPlace struct {
	path string
	pos  textbuf.Pos
}

// maxNavHistory bounds how many places back remembers.
const maxNavHistory = 100

// navHistory is where the person was before each jump (go to definition,
// a place in a list), walked with Alt+Left and Alt+Right as in an IDE.
// Plain data, used on the main goroutine.
type navHistory struct {
	back, forward []navPlace
}

// jumped records from, where the caret was before a jump; what was
// forward is forgotten.
func (h *navHistory) jumped(from navPlace) {
	if n := len(h.back); n > 0 && h.back[n-1] == from {
		return
	}
	h.back = append(h.back, from)
	if over := len(h.back) - maxNavHistory; over > 0 {
		h.back = append(h.back[:0:0], h.back[over:]...)
	}
	h.forward = nil
}

// goBack returns the navPlace before cur, remembering cur for goForward.
func (h *navHistory) goBack(cur navPlace) (navPlace, bool) {
	return step(&h.back, &h.forward, cur)
}

// goForward returns the navPlace goBack left, remembering cur for goBack.
func (h *navHistory) goForward(cur navPlace) (navPlace, bool) {
	return step(&h.forward, &h.back, cur)
}

func step(from, to *[]navPlace, cur navPlace) (navPlace, bool) {
	n := len(*from)
	if n == 0 {
		return navPlace{}, false
	}
	p := (*from)[n-1]
	*from = (*from)[:n-1]
	*to = append(*to, cur)
	return p, true
}

// navUI is the window's part for back and forward: the history of
// jumps, and Alt+Left and Alt+Right. Main goroutine only.
type navUI struct {
	w       *Window
	history navHistory
}

// here is the active editor's file and caret, or false without one.
func (n *navUI) here() (navPlace, bool) {
	t := n.w.tabs.current()
	if t == nil || t.view == nil {
		return navPlace{}, false
	}
	return navPlace{path: t.path, pos: t.view.Caret()}, true
}

// rememberHere records the active editor's caret before a jump.
func (n *navUI) rememberHere() {
	if p, ok := n.here(); ok {
		n.history.jumped(p)
	}
}

// shortcuts binds Alt+Left (back) and Alt+Right (forward); a focused
// editor hands them on to the window.
func (n *navUI) shortcuts() {
	w := n.w
	walk := func(to func(navPlace) (navPlace, bool)) func(fyne.Shortcut) {
		return func(fyne.Shortcut) {
			cur, _ := n.here()
			if p, ok := to(cur); ok {
				w.goTo.openAt(p.path, p.pos.Line+1, p.pos.Col+1)
			}
		}
	}
	c := w.win.Canvas()
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyLeft, Modifier: fyne.KeyModifierAlt}, walk(n.history.goBack))
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyRight, Modifier: fyne.KeyModifierAlt}, walk(n.history.goForward))
}
