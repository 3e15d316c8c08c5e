package ui

import (
	"time"

	"fyne.io/fyne/v2"

	"trestle/app/changeset"
	"trestle/app/project"
)

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
		w.editTimers = map[string]*time.Timer{}
	}
	if t := w.editTimers[rel]; t != nil {
		t.Stop()
	}
	w.editTimers[rel] = time.AfterFunc(staleCheckDelay, func() {
		fyne.Do(func() { w.checkBufferAgainstProposals(rel) })
	})
}

// checkBufferAgainstProposals marks stale the pending change sets whose base
// of rel is no longer what the editor holds. Main goroutine only; the store
// work runs off it.
func (w *Window) checkBufferAgainstProposals(rel string) {
	v := w.changes
	b := w.tabs.buffer(rel)
	if v == nil || !b.open {
		return
	}
	hash := project.NewFileText(rel, b.text).SHA256 // the base hash is trestle_read's
	stale := false
	for _, cs := range v.sets {
		if f := cs.File(rel); f != nil && cs.State == changeset.StatePending && f.BaseSHA256 != hash {
			stale = true
		}
	}
	if !stale {
		return
	}
	v.async(func() {
		if _, err := v.m.MarkStale([]string{rel}); err != nil {
			w.Notify("change sets: " + err.Error())
		}
		v.reload()
	})
}
