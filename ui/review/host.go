package review

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
	"trestle/app/project"
)

// Host is what the review needs of the window around it; the window
// implements it (ui/review_host.go) and the review knows nothing else of
// it.
type Host interface {
	// Window is the window dialogs show over.
	Window() fyne.Window
	// ShowDialog shows d so that Escape closes it. Main goroutine only.
	ShowDialog(d dialog.Dialog)
	// EscapeTop closes the dialog on top, reporting whether there was one
	// (an entry in a dialog passes Escape on to it). Main goroutine only.
	EscapeTop() bool
	// Status shows msg in the status bar. Main goroutine only.
	Status(msg string)
	// CurrentText reads the project file rel as the person sees it: the
	// editor's text when it is open, else the disk. Never on the main
	// goroutine.
	CurrentText(ctx context.Context, path project.Path) (text string, exists bool, err error)
	// FilesWritten tells the window that an apply or a revert wrote files:
	// before maps each to the text its editor had to hold when the change
	// was checked. Never on the main goroutine.
	FilesWritten(before map[string]string)
	// TitleChanged says that the pane's tab title (its badge) changed.
	// Main goroutine only.
	TitleChanged()
	// ShowTab shows item in the editor area, adding it when it is not
	// there (the person may have closed it). With focus it selects it;
	// without, only when no file's tab is selected (a proposal arriving
	// never takes the editor from under the person's typing). Main
	// goroutine only.
	ShowTab(item *container.TabItem, focus bool)
	// Unsaved returns those of paths that have unsaved edits in their
	// editor. Main goroutine only.
	Unsaved(paths []string) []string
	// Save saves the editors of paths and calls done on the main goroutine
	// with whether all were written. Main goroutine only.
	Save(paths []string, done func(ok bool))
	// ProposalsChanged says that the change sets changed: the files' tabs
	// may show what is proposed for them (Proposals, Inline). Main
	// goroutine only.
	ProposalsChanged()
	// Do runs fn on the main goroutine (by fyne.Do), or drops it once the
	// window is closing: the view's one way onto the main goroutine. Safe
	// from any goroutine; it does not wait for fn.
	Do(fn func())
}

// do runs fn on the main goroutine through the host (Host.Do). Safe from
// any goroutine.
func (v *View) do(fn func()) { v.host.Do(fn) }

// notify shows msg in the status bar. Safe from any goroutine.
func (v *View) notify(msg string) { v.do(func() { v.host.Status(msg) }) }

// reader is the host's CurrentText as a changeset.ReadFunc. Off the main
// goroutine only.
func (v *View) reader() changeset.ReadFunc {
	return func(path project.Path) (string, bool, error) { return v.host.CurrentText(context.Background(), path) }
}

// Item is the pane's tab, for the window's bottom panes.
func (v *View) Item() *container.TabItem { return v.item }

// Start loads the list and watches the store for proposals from other
// processes until Stop. Main goroutine only, once.
func (v *View) Start() { v.start(v.pollEvery) }

// Stop stops watching the store and waits for the watcher. Safe to call
// more than once; main goroutine only (it must not be called from inside a
// Host.Do the poller waits on).
func (v *View) Stop() { v.stopPolling() }

// Proposed tells the view about a change set an agent proposed (or
// withdrew) through this process: it reloads, and a new pending one is
// announced in the status bar. Main goroutine only.
func (v *View) Proposed(cs changeset.ChangeSet) {
	v.announce(cs)
	v.async(v.reload)
}

// FilesChanged marks stale, off the main goroutine, the pending change
// sets that touch paths (changed on disk), and shows them. Safe to call
// from any goroutine.
func (v *View) FilesChanged(paths []string) {
	if len(paths) == 0 {
		return
	}
	v.async(func() {
		ids, err := v.m.MarkStaleOnDisk(paths)
		if err != nil {
			v.notify("change sets: " + err.Error())
		}
		if len(ids) > 0 {
			v.reload()
		}
	})
}

// BufferChanged marks stale the pending change sets whose base of rel is
// no longer text, what the editor holds. Main goroutine only; the store
// work runs off it.
func (v *View) BufferChanged(rel, text string) {
	hash := project.NewFileText(rel, text).SHA256 // the base hash is trestle_read's
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
			v.notify("change sets: " + err.Error())
		}
		v.reload()
	})
}

// ApplyAsPerson selects change set id and presses Accept All and Apply
// with every file ticked, as a person's clicks would, and reports whether
// the pane lists id. Main goroutine only.
func (v *View) ApplyAsPerson(id string) bool {
	i := v.index(id)
	if i < 0 {
		return false
	}
	v.Show(id)
	t := v.tabs[id]
	t.reject = map[string]map[int]bool{}
	cs := v.sets[i] // the listed record: a whole-file apply needs no bodies
	for _, f := range cs.Files {
		t.include[f.Path] = applicable(f)
	}
	t.acceptUndecided(cs)
	t.decide(cs, t.decisions(cs))
	return true
}

// Show opens change set id for review in its tab, reporting whether the
// pane lists id. Main goroutine only.
func (v *View) Show(id string) bool {
	i := v.index(id)
	if i >= 0 {
		v.open(id)
	}
	return i >= 0
}

// RunInline makes the view run its store and file work on the calling
// goroutine and stops the store watcher: for tests under Fyne's test
// driver, which runs fyne.Do inline on any goroutine, so work on another
// goroutine would touch widgets beside the test. Main goroutine only.
func (v *View) RunInline() {
	v.stopPolling()
	v.async = func(fn func()) { fn() }
}

// Refreshed receives (without blocking) after each list shown; tests wait on it.
func (v *View) Refreshed() <-chan struct{} { return v.refreshed }

// escEntry is an entry for a dialog: Escape closes the dialog instead of
// doing nothing.
type escEntry struct {
	widget.Entry
	host Host
}

func newEscEntry(host Host) *escEntry {
	e := &escEntry{host: host}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey implements fyne.Focusable.
func (e *escEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.host.EscapeTop() {
		return
	}
	e.Entry.TypedKey(k)
}
