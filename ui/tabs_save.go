package ui

// Saving tabs: the one save path every save takes, Save All, and asking
// whether to save a tab's unsaved text.

import (
	"crypto/sha256"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// save is the one save of a tab, whatever asked for it (Ctrl+S in the
// editor or anywhere, File ▸ Save, Save All, the palette, a save before a
// build or an apply): it formats when format on save is on (format), then
// writes t's text on another goroutine, marks what was written saved, or
// shows why it could not be (the text stays in the editor), and calls
// done, when not nil, with whether it was written.
func (a *tabArea) save(t *fileTab, done func(ok bool)) {
	if t.view == nil || a.project == nil {
		return
	}
	if a.format != nil {
		a.format(t, func() { a.write(t, done) })
		return
	}
	a.write(t, done)
}

// write is save after formatting.
func (a *tabArea) write(t *fileTab, done func(ok bool)) {
	text, state := t.view.Snapshot()
	before := t.view.DiskHash()
	t.view.SetDiskHash(sha256.Sum256([]byte(text))) // the watcher's event for this write is ours
	p := a.project
	a.saving.Go(func() {
		err := saveFile(p, t.path, text)
		a.main.do(func() {
			if err != nil {
				t.view.SetDiskHash(before) // the disk still holds what it held
				a.showError(err)
			} else {
				t.view.SavedAt(state)
				runHooks(a.saved, t)
				a.notify("Saved " + t.path)
			}
			if done != nil {
				done(err == nil)
			}
		})
	})
}

// saveActive saves the selected tab.
func (a *tabArea) saveActive() {
	if t := a.current(); t != nil {
		a.save(t, nil)
	}
}

// saveAll saves every tab with unsaved changes and calls done, when not
// nil, once all are written (ok) or any failed.
func (a *tabArea) saveAll(done func(ok bool)) {
	dirty := a.dirtyTabs()
	left, allOK := len(dirty), true
	if left == 0 && done != nil {
		done(true)
	}
	for _, t := range dirty {
		a.save(t, func(ok bool) {
			left--
			allOK = allOK && ok
			if left == 0 && done != nil {
				done(allOK)
			}
		})
	}
}

// dirtyTabs returns the tabs with unsaved changes, in tab order.
func (a *tabArea) dirtyTabs() []*fileTab {
	var out []*fileTab
	for _, item := range a.docs.Items {
		if t := a.byItem[item]; t.dirty() {
			out = append(out, t)
		}
	}
	return out
}

// showError shows err in a dialog and in the status bar.
func (a *tabArea) showError(err error) {
	a.notify(err.Error())
	if a.win != nil {
		a.dialogs.showError(err)
	}
}

// askSave asks whether to save unsaved changes: Save calls onSave,
// Discard calls onDiscard and Cancel does nothing. Without a window it
// does nothing.
func askSave(dialogs *dialogStack, title, msg string, onSave, onDiscard func()) {
	if dialogs == nil || dialogs.win == nil {
		return
	}
	d := dialog.NewCustomWithoutButtons(title, widget.NewLabel(msg), dialogs.win)
	save := widget.NewButton("Save", func() { d.Hide(); onSave() })
	save.Importance = widget.HighImportance
	discard := widget.NewButton("Discard", func() { d.Hide(); onDiscard() })
	discard.Importance = widget.DangerImportance
	d.SetButtons([]fyne.CanvasObject{widget.NewButton("Cancel", d.Hide), discard, save})
	dialogs.show(d)
}
