package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
	"trestle/app/errdefs"
	"trestle/app/watch"
	"trestle/app/workbench"
)

// changePollEvery is how often the window looks for change sets made by
// another process (a headless trestle --mcp on the same store) only when
// the store's folder cannot be watched (no inotify instance left): then a
// proposal still shows up, late. Otherwise a StoreWatcher reports each
// change and nothing polls.
var changePollEvery = 10 * time.Second

// changesTitle is the Change Sets tab's title without its badge.
const changesTitle = "Change Sets"

// changeSetsView is the Change Sets pane: the proposals on the left, the
// selected one's description and per-file diffs on the right. Its fields
// are used on the main goroutine only, except m (safe for concurrent use),
// those under mu and the wait groups.
type changeSetsView struct {
	w    *Window
	m    *changeset.Manager
	item *container.TabItem

	list    *changeList
	sets    []changeset.ChangeSet
	shown   string          // the id whose detail is shown, or ""
	shownFP string          // its fingerprint when the detail was built
	include map[string]bool // the shown set's file checkboxes, by path
	checks  map[string]*widget.Check
	detail  *fyne.Container
	seen    map[string]bool // ids already listed or announced
	loaded  bool            // the first list arrived
	// following is set while the list re-selects the shown set after a reload.
	following bool

	apply, reject, revert *widget.Button
	copyMessage           *widget.Button // an applied set's title and description, for git commit
	sideBySide            bool           // diffs side by side instead of unified

	mu      sync.Mutex // serialises list reads with their fyne.Do, so the newest wins
	lastFP  string     // under mu: the fingerprint of the last list sent to the view
	lastErr string     // under mu: the last store error shown
	stop    chan struct{}
	poll    sync.WaitGroup // the poller
	busy    sync.WaitGroup // store and file work started by the view
	// async runs store and file work off the main goroutine: busy.Go, or
	// inline in tests, whose driver runs fyne.Do inline on any goroutine.
	async func(func())
	// refreshed receives (without blocking) after each list shown; tests wait on it.
	refreshed chan struct{}
}

// SetChangeSets shows m's change sets in a Change Sets tab of the bottom
// panes and starts watching the store for proposals from other processes
// until the window closes. A nil m does nothing. It must be called on the
// main goroutine, once, before the window shows.
func (w *Window) SetChangeSets(m *changeset.Manager) {
	if m == nil || w.changes != nil {
		return
	}
	w.changes = newChangeSetsView(w, m)
	w.tabs.onEdit = w.bufferEdited
	w.panes.tabs.Append(w.changes.item)
	w.changes.start(changePollEvery)
}

// ChangeSetProposed tells the window about a change set an agent proposed
// (or withdrew) through this process: the view reloads, and a new pending
// one is announced in the status bar. Safe to call from any goroutine.
func (w *Window) ChangeSetProposed(cs changeset.ChangeSet) {
	fyne.Do(func() {
		if v := w.changes; v != nil {
			v.announce(cs)
			v.async(v.reload)
		}
	})
}

// CurrentText reads the project file rel as the person sees it: the open
// editor's text (as it would be saved) when it has a tab, else the file on
// disk (workbench.Reader). A missing file is exists == false with a nil
// error. rel is confined to the project. It must not be called on the main
// goroutine; the editor read is one bounded main-thread call (busy after
// DefaultCallBound).
func (w *Window) CurrentText(ctx context.Context, rel string) (text string, exists bool, err error) {
	cp, err := w.project.Resolve(rel)
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", rel, err)
	}
	return w.reader().Current(ctx, cp)
}

// reader reads files as the person sees them: this window's editors, else disk.
func (w *Window) reader() workbench.Reader { return workbench.Reader{Project: w.project, Buffers: w} }

// currentReader is the reader as a changeset.ReadFunc. Off the main goroutine only.
func (w *Window) currentReader() changeset.ReadFunc { return w.reader().Func(context.Background()) }

func newChangeSetsView(w *Window, m *changeset.Manager) *changeSetsView {
	v := &changeSetsView{w: w, m: m, seen: map[string]bool{}, include: map[string]bool{},
		stop: make(chan struct{}), refreshed: make(chan struct{}, 1)}
	v.async = v.busy.Go
	v.list = newChangeList(func() int { return len(v.sets) }, v.row)
	v.list.OnSelected = v.selected
	v.apply = widget.NewButton("Apply", v.applySelected)
	v.apply.Importance = widget.HighImportance
	v.reject = widget.NewButton("Reject…", v.askReject)
	v.revert = widget.NewButton("Revert", v.revertShown)
	v.copyMessage = widget.NewButton("Copy Commit Message", v.copyCommitMessage)
	v.detail = container.NewStack()
	buttons := container.NewHBox(v.apply, v.reject, v.revert, v.copyMessage)
	right := container.NewBorder(nil, buttons, nil, nil, v.detail)
	split := container.NewHSplit(v.list, right)
	split.Offset = 0.35
	v.item = container.NewTabItem(changesTitle, split)
	v.showNothing()
	return v
}

// start loads the list and reloads it whenever the store file changes
// until stopPolling; where the store cannot be watched it polls every
// interval instead.
func (v *changeSetsView) start(every time.Duration) {
	v.poll.Go(func() {
		sw, err := changeset.WatchStore(v.m, v.pollOnce)
		v.reload() // after the watch starts, so no change falls between
		if err == nil {
			<-v.stop
			sw.Close()
			return
		}
		v.w.Notify(err.Error() + "; proposals from other processes show up within " + every.String())
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-v.stop:
				return
			case <-t.C:
				v.pollOnce()
			}
		}
	})
}

// stopPolling stops the poller and waits for it. Safe to call more than
// once; it must not be called from inside a fyne.Do the poller waits on.
func (v *changeSetsView) stopPolling() {
	select {
	case <-v.stop:
	default:
		close(v.stop)
	}
	v.poll.Wait()
}

// reload reads the list from the store and shows it. Off the main goroutine.
func (v *changeSetsView) reload() { v.load(true) }

// pollOnce shows the list only when it changed since the last one shown.
// Off the main goroutine.
func (v *changeSetsView) pollOnce() { v.load(false) }

func (v *changeSetsView) load(always bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	sets, err := v.m.List("")
	if err != nil {
		if msg := "change sets: " + err.Error(); msg != v.lastErr { // once, not every poll
			v.lastErr = msg
			v.w.Notify(msg)
		}
		return
	}
	v.lastErr = ""
	fp := listFingerprint(sets)
	if !always && fp == v.lastFP {
		return
	}
	v.lastFP = fp
	fyne.Do(func() { v.setSets(sets) })
}

// listFingerprint changes whenever a change set or one of its files
// changes state.
func listFingerprint(sets []changeset.ChangeSet) string {
	var b strings.Builder
	for _, cs := range sets {
		b.WriteString(setFingerprint(cs))
		b.WriteByte(';')
	}
	return b.String()
}

func setFingerprint(cs changeset.ChangeSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %q", cs.ID, cs.State, cs.Reason)
	for _, f := range cs.Files {
		fmt.Fprintf(&b, " %s=%s", f.Path, f.State)
	}
	return b.String()
}

// setSets shows a fresh list, announces pending sets not seen before (but
// not those already there when the window opened), updates the badge and
// rebuilds the detail when its set changed. Main goroutine only.
func (v *changeSetsView) setSets(sets []changeset.ChangeSet) {
	v.sets = sets
	for _, cs := range sets {
		if v.loaded {
			v.announce(cs)
		}
		v.seen[cs.ID] = true
	}
	v.loaded = true
	v.list.Refresh()
	v.setBadge()
	if i := v.index(v.shown); i >= 0 {
		v.following = true
		v.list.Select(i) // the row may have moved
		v.following = false
		if setFingerprint(sets[i]) != v.shownFP {
			v.loadDetail(sets[i])
		}
	} else if v.shown != "" {
		v.showNothing()
	}
	select {
	case v.refreshed <- struct{}{}:
	default:
	}
}

// selected shows the set of row id. A row the person picked gives the
// list the keyboard: Fyne's tap focuses an extended List's inner List,
// which is not on the canvas. Main goroutine only.
func (v *changeSetsView) selected(id widget.ListItemID) {
	v.show(v.sets[id].ID)
	if !v.following {
		if c := fyne.CurrentApp().Driver().CanvasForObject(v.list); c != nil {
			c.Focus(v.list)
		}
	}
}

// announce says in the status bar that a pending change set arrived, once
// per id. Main goroutine only.
func (v *changeSetsView) announce(cs changeset.ChangeSet) {
	if v.seen[cs.ID] || cs.State != changeset.StatePending {
		return
	}
	v.seen[cs.ID] = true
	client := cs.Client
	if client == "" {
		client = "an agent"
	}
	v.w.status.notify(fmt.Sprintf("%s proposed %s (%s)", changeset.MarkControls(client), changeset.MarkControls(cs.Title), cs.ID))
}

// setBadge shows how many change sets await a decision in the tab title.
func (v *changeSetsView) setBadge() {
	n := 0
	for _, cs := range v.sets {
		if cs.Undecided() {
			n++
		}
	}
	title := changesTitle
	if n > 0 {
		title = fmt.Sprintf("%s (%d)", changesTitle, n)
	}
	if v.item.Text != title {
		v.item.Text = title
		v.w.panes.tabs.Refresh()
	}
}

func (v *changeSetsView) index(id string) int {
	for i, cs := range v.sets {
		if cs.ID == id {
			return i
		}
	}
	return -1
}

// row fills one list row: the title, and under it the rest.
func (v *changeSetsView) row(id widget.ListItemID, o fyne.CanvasObject) {
	lines := o.(*fyne.Container).Objects
	cs := v.sets[id]
	lines[0].(*widget.Label).SetText(changeset.MarkControls(cs.Title))
	lines[1].(*widget.Label).SetText(setRowText(cs, time.Now()))
}

// newRow is an empty list row: a bold title over a line of details.
func newRow() fyne.CanvasObject {
	title := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Truncation = fyne.TextTruncateEllipsis
	meta := widget.NewLabel("")
	meta.Truncation = fyne.TextTruncateEllipsis
	meta.SizeName = theme.SizeNameCaptionText
	return container.New(layout.NewCustomPaddedVBoxLayout(0), title, meta)
}

// setRowText is a list row's detail line: state, id, client, age and diff stats.
func setRowText(cs changeset.ChangeSet, now time.Time) string {
	added, removed := cs.Stats()
	client := cs.Client
	if client == "" {
		client = "unknown client"
	}
	return fmt.Sprintf("%s · %s · %s · %s · +%d −%d", stateText(cs.State), cs.ID, client, changeset.Age(now.Sub(cs.Created)), added, removed)
}

// stateText is a state as a person reads it: "partly applied".
func stateText(s string) string { return strings.ReplaceAll(s, "_", " ") }

// changeList is a List whose Enter and Return select the focused row, as
// Space does.
type changeList struct {
	widget.List
}

func newChangeList(length func() int, update func(widget.ListItemID, fyne.CanvasObject)) *changeList {
	l := &changeList{}
	l.Length = length
	l.CreateItem = newRow
	l.UpdateItem = update
	l.ExtendBaseWidget(l)
	return l
}

// TypedKey selects the focused row on Enter and Return.
func (l *changeList) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyReturn || k.Name == fyne.KeyEnter {
		k = &fyne.KeyEvent{Name: fyne.KeySpace}
	}
	l.List.TypedKey(k)
}

// current is the change set whose detail is shown. Main goroutine only.
func (v *changeSetsView) current() (changeset.ChangeSet, bool) {
	if i := v.index(v.shown); i >= 0 {
		return v.sets[i], true
	}
	return changeset.ChangeSet{}, false
}

// setButtons enables what the person may do with cs. Main goroutine only.
func (v *changeSetsView) setButtons(cs changeset.ChangeSet) {
	enable(v.apply, cs.ID != "" && cs.Undecided())
	enable(v.reject, cs.ID != "" && cs.Undecided())
	enable(v.revert, cs.State == changeset.StateApplied || cs.State == changeset.StatePartlyApplied)
	enable(v.copyMessage, cs.State == changeset.StateApplied || cs.State == changeset.StatePartlyApplied)
}

// copyCommitMessage puts the shown set's title and description on the
// clipboard as a commit message (Trestle stages and commits nothing).
// Main goroutine only.
func (v *changeSetsView) copyCommitMessage() {
	cs, ok := v.current()
	if !ok {
		return
	}
	fyne.CurrentApp().Clipboard().SetContent(commitMessage(cs))
	v.w.status.notify("Copied " + cs.ID + "'s commit message.")
}

// commitMessage is a change set as a commit message: the title, a blank
// line and the description, with the proposing client named.
func commitMessage(cs changeset.ChangeSet) string {
	msg := strings.TrimSpace(cs.Title)
	if d := strings.TrimSpace(cs.Description); d != "" {
		msg += "\n\n" + strings.Map(func(r rune) rune {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
				return -1 // no terminal escapes into a commit message
			}
			return r
		}, d)
	}
	if cs.Client != "" {
		msg += "\n\nProposed by " + cs.Client + " through Trestle (" + cs.ID + ")."
	}
	return msg + "\n"
}

func enable(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

// included lists the ticked files of cs, in its order.
func (v *changeSetsView) included(cs changeset.ChangeSet) []string {
	var out []string
	for _, f := range cs.Files {
		if v.include[f.Path] {
			out = append(out, f.Path)
		}
	}
	return out
}

// applySelected applies the ticked files of the shown change set, off the
// main goroutine. Main goroutine only.
func (v *changeSetsView) applySelected() {
	cs, ok := v.current()
	if !ok {
		return
	}
	include := v.included(cs)
	if len(include) == 0 {
		v.w.status.notify("Tick at least one file to apply " + cs.ID)
		return
	}
	v.work(func() {
		res, err := v.m.Apply(cs.ID, include, v.w.currentReader(), nil)
		v.finish("Apply "+cs.ID, res, err, func(f changeset.FileChange) (string, bool) {
			return f.Base, f.State == changeset.StateApplied
		})
	})
}

// revertShown restores the base of the shown applied change set's files,
// off the main goroutine. Main goroutine only.
func (v *changeSetsView) revertShown() {
	cs, ok := v.current()
	if !ok {
		return
	}
	v.work(func() {
		res, err := v.m.Revert(cs.ID, v.w.currentReader(), nil)
		v.finish("Revert "+cs.ID, res, err, func(f changeset.FileChange) (string, bool) {
			return f.New, f.State == changeset.FileReverted
		})
	})
}

// askReject asks for an optional reason, then rejects the shown change
// set. Main goroutine only.
func (v *changeSetsView) askReject() {
	cs, ok := v.current()
	if !ok {
		return
	}
	reason := newEscEntry()
	reason.SetPlaceHolder("optional: why, for the agent to read")
	items := []*widget.FormItem{widget.NewFormItem("Reason", reason)}
	d := dialog.NewForm("Reject "+cs.ID+": "+changeset.MarkControls(cs.Title), "Reject", "Cancel", items, func(ok bool) {
		if ok {
			v.rejectWith(cs.ID, reason.Text)
		}
	}, v.w.win)
	reason.OnSubmitted = func(string) { d.Submit() } // Enter rejects
	d.Resize(fyne.NewSize(480, 0))
	showDialog(v.w.win.Canvas(), d)
	v.w.win.Canvas().Focus(reason)
}

// rejectWith rejects change set id with reason, off the main goroutine.
// Main goroutine only.
func (v *changeSetsView) rejectWith(id, reason string) {
	v.work(func() {
		_, err := v.m.Reject(id, strings.TrimSpace(reason))
		fyne.Do(func() {
			if err != nil {
				v.showError(err)
			} else {
				v.w.status.notify("Rejected " + id)
			}
		})
		v.reload()
	})
}

// work disables the buttons and runs fn off the main goroutine; the next
// list shown enables them again. Main goroutine only.
func (v *changeSetsView) work(fn func()) {
	v.setButtons(changeset.ChangeSet{})
	v.async(fn)
}

// finish reports an apply or a revert and, when it wrote files, shows
// their new content in their open tabs: written says, for each file of
// res, whether it was written and the text its tab had to hold before.
// Off the main goroutine.
func (v *changeSetsView) finish(what string, res changeset.ChangeSet, err error, written func(changeset.FileChange) (string, bool)) {
	if err == nil {
		before := map[string]string{}
		for _, f := range res.Files {
			if old, ok := written(f); ok {
				before[f.Path] = old
			}
		}
		v.w.reloadTabs(before)
	}
	fyne.Do(func() {
		switch {
		case errors.Is(err, changeset.ErrConflict):
			v.showProblem(what+" refused", conflictText(res, err))
		case err != nil:
			v.showError(err)
		default:
			v.w.status.notify(fmt.Sprintf("%s %s", res.ID, stateText(res.State)))
		}
	})
	v.reload()
	fyne.Do(func() {
		if cs, ok := v.current(); ok {
			v.setButtons(cs)
		}
	})
}

// conflictText says which files changed since, from the conflicts res
// records, else from err.
func conflictText(res changeset.ChangeSet, err error) string {
	var lines []string
	for _, f := range res.Files {
		if f.State == changeset.StateConflict && f.Detail != "" {
			lines = append(lines, "• "+f.Detail)
		}
	}
	if len(lines) == 0 {
		return err.Error()
	}
	return "Nothing was written. These files changed since the proposal:\n\n" + strings.Join(lines, "\n") +
		"\n\nLook at them, then ask the agent for a new proposal or reject this one."
}

// showProblem shows msg in a dialog and in the status bar. Main goroutine only.
func (v *changeSetsView) showProblem(title, msg string) {
	v.w.status.notify(title)
	showInfo(title, msg, v.w.win)
}

// showError shows err in a dialog and in the status bar. Main goroutine only.
func (v *changeSetsView) showError(err error) {
	v.w.status.notify(err.Error())
	showError(err, v.w.win)
}

// reloadTabs shows the new content of written files in their open tabs,
// closing the tabs of files that are gone. before maps each written file
// to the text its tab had when the change was checked: a tab the person
// edited since keeps their text. Off the main goroutine.
func (w *Window) reloadTabs(before map[string]string) {
	open, err := CallValue(context.Background(), 0, func() []string {
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
	fyne.Do(func() {
		for _, f := range loads {
			w.replaceTab(f, before[f.path])
		}
	})
}

// replaceTab shows f in its tab in place, saved, or closes the tab when f
// has neither text nor notice (the file is gone). A tab whose text is no
// longer before keeps it and the person hears why. Main goroutine only.
func (w *Window) replaceTab(f loaded, before string) {
	t := w.tabs.find(f.path)
	if t == nil {
		return
	}
	if t.dirty() && t.view.buf.FileText() != before {
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

// changeSetsSawFiles marks stale, off the main goroutine, the pending
// change sets that touch files a watcher batch changed, and shows them.
// Safe to call from any goroutine once SetChangeSets has run.
func (w *Window) changeSetsSawFiles(events []watch.Event) {
	v := w.changes
	if v == nil {
		return
	}
	var paths []string
	for _, e := range events {
		if e.Path != watch.All {
			paths = append(paths, e.Path)
		}
	}
	if len(paths) == 0 {
		return
	}
	v.async(func() {
		ids, err := v.m.MarkStale(paths)
		if err != nil {
			v.w.Notify("change sets: " + err.Error())
		}
		if len(ids) > 0 {
			v.reload()
		}
	})
}
