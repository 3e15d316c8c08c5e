package ui

import "time"

// staleCheckDelay is how long typing must pause before an edited buffer is
// compared with the pending change sets that touch it: soon enough that the
// pane shows "stale" while the person looks, rarely enough not to hash a
// big file on every keystroke.
const staleCheckDelay = 500 * time.Millisecond

// bufferEdited schedules the stale check of rel's pending change sets.
// Main goroutine only.
func (w *Window) bufferEdited(rel string) {
	if w.changes == nil {
		return
	}
	if w.editTimers == nil {
		w.editTimers = map[string]func(){}
	}
	if stop := w.editTimers[rel]; stop != nil {
		stop()
	}
	after := w.editAfter
	if after == nil {
		after = w.main.afterStop // nothing once the window closes
	}
	w.editTimers[rel] = after(staleCheckDelay, func() { w.checkBufferAgainstProposals(rel) })
}

// stopEditTimers stops the pending stale checks, as the window closes.
// Main goroutine only.
func (w *Window) stopEditTimers() {
	for rel, stop := range w.editTimers {
		stop()
		delete(w.editTimers, rel)
	}
}

// checkBufferAgainstProposals marks stale the pending change sets whose base
// of rel is no longer what the editor holds. Main goroutine only; the store
// work runs off it.
func (w *Window) checkBufferAgainstProposals(rel string) {
	if b := w.tabs.buffer(rel); w.changes != nil && b.open {
		w.changes.BufferChanged(rel, b.snap.FileText())
	}
}
