package ui

import "time"

// staleCheckDelay is how long typing must pause before an edited buffer is
// compared with the pending change sets that touch it: soon enough that the
// pane shows "stale" while the person looks, rarely enough not to hash a
// big file on every keystroke.
const staleCheckDelay = 500 * time.Millisecond

// bufferEdited schedules the stale check of rel's pending change sets.
// Main goroutine only.
func (r *reviewUI) bufferEdited(rel string) {
	if r.view == nil {
		return
	}
	if r.editTimers == nil {
		r.editTimers = map[string]func(){}
	}
	if stop := r.editTimers[rel]; stop != nil {
		stop()
	}
	// main.afterStop: nothing once the window closes, and nothing in a
	// test window, whose timers are held (a test runs the check itself).
	r.editTimers[rel] = r.w.main.afterStop(staleCheckDelay, func() { r.checkBufferAgainstProposals(rel) })
}

// stopEditTimers stops the pending stale checks, as the window closes.
// Main goroutine only.
func (r *reviewUI) stopEditTimers() {
	for rel, stop := range r.editTimers {
		stop()
		delete(r.editTimers, rel)
	}
}

// checkBufferAgainstProposals marks stale the pending change sets whose base
// of rel is no longer what the editor holds. Main goroutine only; the store
// work runs off it.
func (r *reviewUI) checkBufferAgainstProposals(rel string) {
	if b := r.w.tabs.buffer(rel); r.view != nil && b.open {
		r.view.BufferChanged(rel, b.snap.FileText())
	}
}
