package textbuf

import (
	"strings"
	"time"
)

// typingPause is how long a pause ends a typing run: a second is longer
// than the gap between keystrokes of a slow typist and shorter than the
// time it takes to think of the next word.
const typingPause = time.Second

// edit is one replacement: at the position at, removed was replaced by
// inserted.
type edit struct {
	at                Pos
	removed, inserted string
}

// group is what one Undo takes back.
type group struct {
	id    int
	edits []edit
}

// history holds the undo and redo stacks. A typing run is kept open so
// that the next single rune typed at its end joins it.
type history struct {
	undo, redo []group
	nextID     int
	saved      int       // the state id at the last save
	open       bool      // the top undo group is a typing run that may grow
	openEnd    Pos       // where the typing run ends
	last       time.Time // when the typing run last grew
}

// record adds e, after which the caret is at end, to the undo stack.
func (h *history) record(e edit, end Pos, now time.Time) {
	h.redo = nil
	typing := e.inserted != "\n" && len([]rune(e.inserted)) == 1
	if typing && e.removed == "" && h.open && e.at == h.openEnd && now.Sub(h.last) <= typingPause {
		top := &h.undo[len(h.undo)-1]
		top.edits = append(top.edits, e)
	} else {
		h.nextID++
		h.undo = append(h.undo, group{id: h.nextID, edits: []edit{e}})
	}
	h.open, h.openEnd, h.last = typing, end, now
}

// state identifies the text as the undo stack has it: equal states mean
// equal texts.
func (h *history) state() int {
	if len(h.undo) == 0 {
		return 0
	}
	return h.undo[len(h.undo)-1].id
}

// Seal ends the current typing run, so the next edit starts a new undo
// group. The editor calls it when the caret jumps.
func (b *Buffer) Seal() { b.hist.open = false }

// CanUndo and CanRedo report whether Undo and Redo have anything to do.
func (b *Buffer) CanUndo() bool { return len(b.hist.undo) > 0 }

// CanRedo reports whether Redo has anything to do.
func (b *Buffer) CanRedo() bool { return len(b.hist.redo) > 0 }

// Undo takes back the last group of edits and returns where the caret
// goes: where the first of them was made. ok is false when there was
// nothing to undo.
func (b *Buffer) Undo() (caret Pos, ok bool) {
	h := &b.hist
	if len(h.undo) == 0 {
		return Pos{}, false
	}
	g := h.undo[len(h.undo)-1]
	h.undo, h.open = h.undo[:len(h.undo)-1], false
	for i := len(g.edits) - 1; i >= 0; i-- {
		e := g.edits[i]
		caret = b.apply(Range{e.at, endOf(e.at, e.inserted)}, e.removed)
	}
	h.redo = append(h.redo, g)
	return caret, true
}

// Redo makes the last undone group of edits again and returns where the
// caret goes: after the last of them. ok is false when there was nothing
// to redo.
func (b *Buffer) Redo() (caret Pos, ok bool) {
	h := &b.hist
	if len(h.redo) == 0 {
		return Pos{}, false
	}
	g := h.redo[len(h.redo)-1]
	h.redo, h.open = h.redo[:len(h.redo)-1], false
	for _, e := range g.edits {
		caret = b.apply(Range{e.at, endOf(e.at, e.removed)}, e.inserted)
	}
	h.undo = append(h.undo, g)
	return caret, true
}

// SaveState ends the typing run and returns the state of the text now, for
// MarkSavedAt once it is written: the text can change while it is written.
func (b *Buffer) SaveState() int {
	b.hist.open = false
	return b.hist.state()
}

// MarkSavedAt records that the text of state (from SaveState) was saved.
func (b *Buffer) MarkSavedAt(state int) { b.hist.saved = state }

// MarkSaved records that the text as it is now has been saved, and ends
// the typing run so that later typing is a change again.
func (b *Buffer) MarkSaved() {
	b.hist.saved = b.hist.state()
	b.hist.open = false
}

// Modified reports whether the text differs from the last save (or from
// what New was given), by the undo history: undoing back to the saved text
// makes it unmodified again.
func (b *Buffer) Modified() bool { return b.hist.state() != b.hist.saved }

// Type makes t, a keystroke's edit from TypeRune or Newline, as part of a
// typing run. It joins the open run when it goes on where the run left the
// caret (a typed closer that steps over its pair, a } that outdents its
// line, a quote pair), so one Undo takes back a typed line with its
// brackets and quotes, not rune by rune; a line break starts a new group.
// It returns the position after the new text.
func (b *Buffer) Type(t Typed) Pos {
	h, now := &b.hist, b.Now()
	r := b.clampRange(t.Replace.Ordered())
	goesOn := h.open && r.End == h.openEnd && now.Sub(h.last) <= typingPause
	if t.Text == "" && r.Empty() { // a step over a closer: the run goes on after it
		if goesOn {
			h.openEnd, h.last = t.Caret, now
		}
		return t.Caret
	}
	s := normalize(t.Text)
	removed := b.Slice(r)
	goesOn = goesOn && strings.TrimSpace(removed) == "" && !strings.Contains(s, "\n")
	end := b.apply(r, s)
	e := edit{at: r.Start, removed: removed, inserted: s}
	h.redo = nil
	if goesOn {
		top := &h.undo[len(h.undo)-1]
		top.edits = append(top.edits, e)
	} else {
		h.nextID++
		h.undo = append(h.undo, group{id: h.nextID, edits: []edit{e}})
	}
	h.open, h.openEnd, h.last = true, t.Caret, now
	return end
}
