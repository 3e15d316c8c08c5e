package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
	"trestle/app/errdefs"
	"trestle/app/project"
	"trestle/app/watch"
	"trestle/app/workbench"
	"trestle/ui/review"
)

// reviewUI is the window's change-set review part: the Change Sets pane
// (a review.View, with the review tabs it opens in the editor area), what
// each file tab shows of the change sets proposing for it
// (review_inline.go), the stale check of edited buffers
// (changesets_stale.go), and the reloads of the tabs an apply or a revert
// wrote. reviewHost is the window as the view sees it. Main goroutine
// only, except where a method says.
type reviewUI struct {
	w *Window
	// changes are the change sets the window was made with (newWindowIn),
	// whose pane is made with the other panes; nil for none.
	changes *changeset.Manager
	// view is the Change Sets pane, made with the panes or by connect; nil
	// without a change set manager.
	view *review.View
	// inline is what each file tab shows of the change sets proposing for it (review_inline.go).
	inline map[*fileTab]*inlineProposal
	// editTimers debounce the stale check of edited buffers (changesets_stale.go).
	editTimers map[string]func()
}

// connect shows m's change sets in a Change Sets tab of the bottom
// panes and starts watching the store for proposals from other processes
// until the window closes (New's fifth step). The tab is the one made
// with the panes (makeChangeSetsPane) when the window was made with m,
// else it is added now. A nil m does nothing. Main goroutine only, once.
func (r *reviewUI) connect(m *changeset.Manager) {
	w := r.w
	if m == nil || (r.view != nil && r.changes != m) {
		return
	}
	if r.view == nil {
		r.view = review.New(reviewHost{w}, m)
		w.panes.add(changeSetsPane{r.view})
	}
	r.changes = nil // connected: a second call does nothing
	w.tabs.onTyped(func(t *fileTab) { r.bufferEdited(t.path) })
	w.tabs.onAdded(r.showProposalsIn)
	r.view.Start()
}

// makeChangeSetsPane is the Change Sets pane of the change sets the
// window is made with, after paneParts' panes and not yet watching the
// store (connect starts it); nil when there are none.
func makeChangeSetsPane(w *Window) pane {
	r := w.review
	if r.changes == nil {
		return nil
	}
	r.view = review.New(reviewHost{w}, r.changes)
	return changeSetsPane{r.view}
}

// stop stops the view's watch of the store and waits for it. Main
// goroutine only, as the window closes.
func (r *reviewUI) stop() {
	if r.view != nil {
		r.view.Stop()
	}
}

// reviewHost is the window as the change-set review sees it (review.Host).
type reviewHost struct{ w *Window }

func (h reviewHost) Window() fyne.Window              { return h.w.win }
func (h reviewHost) ShowDialog(d dialog.Dialog)       { h.w.dialogs.show(d) }
func (h reviewHost) EscapeTop() bool                  { return h.w.dialogs.escapeTop() }
func (h reviewHost) Status(msg string)                { h.w.status.notify(msg) }
func (h reviewHost) FilesWritten(b map[string]string) { h.w.review.reloadTabs(b) }
func (h reviewHost) ProposalsChanged()                { h.w.review.showProposals() }
func (h reviewHost) TitleChanged()                    { h.w.panes.tabs.Refresh() }
func (h reviewHost) Do(fn func())                     { h.w.main.do(fn) }

// ShowTab shows a review tab in the editor area, full width above the
// panes; without focus it is selected only when no file's tab is.
func (h reviewHost) ShowTab(item *container.TabItem, focus bool) {
	a := h.w.tabs
	if !slices.Contains(a.docs.Items, item) {
		a.docs.Append(item)
		a.update()
	}
	if focus || a.current() == nil {
		a.docs.Select(item)
	}
}

// Unsaved returns those of paths whose tab has unsaved edits.
func (h reviewHost) Unsaved(paths []string) []string {
	var out []string
	for _, p := range paths {
		if t := h.w.tabs.find(p); t != nil && t.dirty() {
			out = append(out, p)
		}
	}
	return out
}

// Save saves the tabs of paths, then calls done with whether all were
// written.
func (h reviewHost) Save(paths []string, done func(ok bool)) {
	left, allOK := len(paths), true
	if left == 0 {
		done(true)
	}
	for _, p := range paths {
		t := h.w.tabs.find(p)
		if t == nil {
			left--
			continue
		}
		h.w.tabs.save(t, func(ok bool) {
			left--
			allOK = allOK && ok
			if left == 0 {
				done(allOK)
			}
		})
	}
}

// CurrentText reads path for the person's own Apply or Revert: its
// editor read waits PersonCallBound for a slow main goroutine instead of
// failing with busy after DefaultCallBound, as an agent's read does.
func (h reviewHost) CurrentText(ctx context.Context, path project.Path) (string, bool, error) {
	return workbench.Reader{Project: h.w.project, Buffers: personBuffers(h)}.Current(ctx, path)
}

// PersonCallBound is how long a read for the person's own action waits for
// the main goroutine: a loaded machine can keep it busy for seconds, and
// the person asked for the action, so it waits rather than failing.
const PersonCallBound = 30 * time.Second

// personBuffers is the window's editors as workbench.Buffers for the
// person's own actions: Window.Buffer with PersonCallBound.
type personBuffers struct{ w *Window }

func (p personBuffers) Buffer(ctx context.Context, path project.Path) (text string, open, dirty bool, err error) {
	return p.w.bufferWithin(ctx, path, PersonCallBound)
}

// changeSetsPane is the Change Sets pane: the review view, which keeps
// its own tab (its title counts the pending sets). connect adds it
// once the window has a change set manager.
type changeSetsPane struct{ v *review.View }

func (p changeSetsPane) paneTitle() string                 { return review.Title }
func (p changeSetsPane) paneContent() fyne.CanvasObject    { return p.v.Item().Content }
func (p changeSetsPane) paneFocus() fyne.Focusable         { return nil }
func (p changeSetsPane) agentText(int) (name, text string) { return "", "" }
func (p changeSetsPane) tabItem() *container.TabItem       { return p.v.Item() }

// ChangeSetProposed tells the window about a change set an agent proposed
// (or withdrew) through this process: the view reloads, and a new pending
// one is announced in the status bar. Safe to call from any goroutine.
func (w *Window) ChangeSetProposed(cs changeset.ChangeSet) { w.review.proposed(cs) }

// proposed is ChangeSetProposed. Safe to call from any goroutine.
func (r *reviewUI) proposed(cs changeset.ChangeSet) {
	r.w.onMain(func() {
		if v := r.view; v != nil {
			v.Proposed(cs)
		}
	})
}

// showSet shows change set id for review, reporting whether the window
// lists it (a notice's Review button). Main goroutine only.
func (r *reviewUI) showSet(id string) bool {
	v := r.view
	if v == nil || !v.Show(id) {
		return false
	}
	r.w.panes.show(changeSetsPane{v})
	return true
}

// ApplyAsPerson selects change set id in the Change Sets pane and presses
// Apply with every file ticked: the path a person's click takes. It is a
// test hook for the end-to-end tests (served only with TRESTLE_TEST_HOOKS=1);
// it returns an error wrapping errdefs.ErrNotFound while the pane does not
// list id yet. Safe for concurrent use from any goroutine but the main one.
func (w *Window) ApplyAsPerson(ctx context.Context, id string) error {
	return w.review.applyAsPerson(ctx, id)
}

// applyAsPerson is ApplyAsPerson.
func (r *reviewUI) applyAsPerson(ctx context.Context, id string) error {
	var listed bool
	err := r.w.main.call(ctx, 0, func() {
		if v := r.view; v != nil {
			r.w.panes.show(changeSetsPane{v})
			listed = v.ApplyAsPerson(id)
		}
	})
	if err == nil && !listed {
		err = fmt.Errorf("the Change Sets pane does not list %s yet: %w", id, errdefs.ErrNotFound)
	}
	return err
}

// currentText reads the project file rel as the person sees it: the open
// editor's text (as it would be saved) when it has a tab, else the file on
// disk (workbench.Reader). A missing file is exists == false with a nil
// error. rel is confined to the project. It must not be called on the main
// goroutine; the editor read is one bounded main-thread call (busy after
// DefaultCallBound), as an agent's read is.
func (r *reviewUI) currentText(ctx context.Context, rel string) (text string, exists bool, err error) {
	cp, err := r.w.project.Resolve(rel)
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", rel, err)
	}
	return r.reader().Current(ctx, cp)
}

// reader reads files as the person sees them: this window's editors, else disk.
func (r *reviewUI) reader() workbench.Reader {
	return workbench.Reader{Project: r.w.project, Buffers: r.w}
}

// reloadTabs shows the new content of written files in their open tabs,
// closing the tabs of files that are gone. before maps each written file
// to the text its tab had when the change was checked: a tab the person
// edited since keeps their text. Off the main goroutine.
func (r *reviewUI) reloadTabs(before map[string]string) {
	w := r.w
	open, err := callValue(context.Background(), w.main, 0, func() []string {
		var out []string
		for p := range before {
			if w.tabs.find(p) != nil {
				out = append(out, p)
			}
		}
		return out
	})
	if err != nil {
		w.Notify("the open editors could not be updated: " + err.Error())
		return
	}
	loads := make([]loaded, 0, len(open))
	for _, p := range open {
		f, err := loadFile(w.project, p)
		if errors.Is(err, errdefs.ErrNotFound) {
			f = loaded{path: p} // deleted: close its tab
		} else if err != nil {
			w.Notify(err.Error())
			continue
		}
		loads = append(loads, f)
	}
	w.onMain(func() {
		for _, f := range loads {
			r.replaceTab(f, before[f.path])
		}
	})
}

// replaceTab shows f in its tab in place, saved, or closes the tab when f
// has neither text nor notice (the file is gone). A tab whose text is no
// longer before keeps it and the person hears why. Main goroutine only.
func (r *reviewUI) replaceTab(f loaded, before string) {
	w := r.w
	t := w.tabs.find(f.path)
	if t == nil {
		return
	}
	if t.dirty() && t.view.Buffer().FileText() != before {
		w.status.notify(f.path + " has edits made during the change; its tab keeps them, the file on disk has the change")
		return
	}
	switch {
	case f.buf == nil && f.notice == "":
		w.tabs.remove(t.item)
		return
	case f.buf == nil:
		t.view, t.item.Content = nil, container.NewCenter(widget.NewLabel(f.notice))
	default:
		t.view = w.tabs.newEditor(t, f)
		t.item.Content = t.view
	}
	w.tabs.retitle(t)
	w.tabs.docs.Refresh()
	if w.tabs.current() == t {
		w.tabs.focusText(t)
	}
}

// sawFiles marks stale, off the main goroutine, the pending change sets
// that touch files a watcher batch changed, and shows them. Safe to call
// from any goroutine once New has returned.
func (r *reviewUI) sawFiles(events []watch.Event) {
	if r.view == nil {
		return
	}
	var paths []string
	for _, e := range events {
		if e.Path != watch.All {
			paths = append(paths, e.Path)
		}
	}
	r.view.FilesChanged(paths)
}

// currentReader is the window's reader as a changeset.ReadFunc. Off the
// main goroutine only.
func (r *reviewUI) currentReader() changeset.ReadFunc {
	return r.reader().Func(context.Background())
}
