package editor

import (
	"trestle/app/lsp"
	"trestle/app/textbuf"
)

// gopls computes diagnostics on the text it was last sent, and answers
// after the person may have typed on: positions on an older text are
// moved through the edits made since (changeLog) before they are drawn,
// so a squiggle stays under the code it is about instead of landing where
// that code was. Lines are moved; columns within an edited line are kept.

// maxLoggedChanges bounds the change log: a diagnostic older than that
// many edits is not drawn (gopls sends newer ones soon after).
const maxLoggedChanges = 1024

// changeLog is the recent edits of the editor's buffer, each with the
// buffer version it made. Main goroutine only.
type changeLog struct {
	base    uint64 // the version before the first entry: the log reaches back to it
	entries []loggedChange
}

type loggedChange struct {
	after uint64
	c     textbuf.Change
}

// reset starts the log again at version (a new buffer).
func (l *changeLog) reset(version uint64) { l.base, l.entries = version, l.entries[:0] }

// add logs c, which made version after.
func (l *changeLog) add(after uint64, c textbuf.Change) {
	if len(l.entries) == maxLoggedChanges {
		drop := maxLoggedChanges / 2
		l.base = l.entries[drop-1].after
		l.entries = append(l.entries[:0], l.entries[drop:]...)
	}
	l.entries = append(l.entries, loggedChange{after, c})
}

// since returns the edits made after the text key names, and false when
// the log does not reach back to it.
func (l *changeLog) since(key uint64) ([]loggedChange, bool) {
	if key < l.base {
		return nil, false
	}
	for i, e := range l.entries {
		if e.after > key {
			return l.entries[i:], true
		}
	}
	return nil, true
}

// mapDiagnostics moves ds, whose positions are on the text key names,
// onto the buffer's text now; without the edits since (too old, or of
// another buffer) it returns none.
func (l *changeLog) mapDiagnostics(ds []lsp.Diagnostic, key uint64) []lsp.Diagnostic {
	changes, ok := l.since(key)
	if !ok {
		return nil
	}
	if len(changes) == 0 {
		return ds
	}
	out := make([]lsp.Diagnostic, len(ds))
	for i, d := range ds {
		for _, c := range changes {
			d.Range.Start.Line = mapLine(d.Range.Start.Line, c.c)
			d.Range.End.Line = mapLine(d.Range.End.Line, c.c)
		}
		out[i] = d
	}
	return out
}

// mapLine moves line (1-based) through c: lines after the edited ones
// move by the lines it added or removed; a line inside stays where it
// was, or on the last line the edit left.
func mapLine(line int, c textbuf.Change) int {
	at := line - 1
	switch {
	case at >= c.Line+c.Removed:
		return line + c.Added - c.Removed
	case at >= c.Line:
		return min(at, c.Line+c.Added-1) + 1
	}
	return line
}
