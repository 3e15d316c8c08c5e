package review

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
)

// changePollEvery is how often a View looks for change sets made by
// another process (a headless trestle --mcp on the same store) only when
// the store's folder cannot be watched (no inotify instance left): then a
// proposal still shows up, late. Otherwise a StoreWatcher reports each
// change and nothing polls. It is the default of View.pollEvery.
const changePollEvery = 10 * time.Second

// Title is the Change Sets tab's title without its badge.
const Title = "Change Sets"

// View is the Change Sets pane: the list of proposals, each opening for
// review in a tab of the editor area (reviewTab). Its fields are used on
// the main goroutine only, except m (safe for concurrent use), those under
// mu and the wait groups.
type View struct {
	host Host
	m    *changeset.Manager
	item *container.TabItem

	list   *changeList
	empty  *widget.Label // the hint while the list is empty
	sets   []changeset.ChangeSet
	tabs   map[string]*reviewTab // the review tabs opened, by id
	seen   map[string]bool       // ids already listed or announced
	loaded bool                  // the first list arrived
	layout string                // the diff layout of review tabs: layoutUnified or layoutSide
	// openWhenListed is a set announced before the list held it: its
	// review tab opens when it is listed.
	openWhenListed string

	mu      sync.Mutex // serialises list reads with their Host.Do, so the newest wins
	lastFP  string     // under mu: the fingerprint of the last list sent to the view
	lastErr string     // under mu: the last store error shown
	stop    chan struct{}
	poll    sync.WaitGroup // the poller
	busy    sync.WaitGroup // store and file work started by the view
	// async runs store and file work off the main goroutine: busy.Go, or
	// inline in tests, whose driver runs fyne.Do inline on any goroutine.
	async func(func())
	// pollEvery is how often Start's fallback polls the store
	// (changePollEvery; tests set it before Start).
	pollEvery time.Duration
	// refreshed receives (without blocking) after each list shown; tests wait on it.
	refreshed chan struct{}
}

// New makes the Change Sets view of m in host; start it with Start. Main
// goroutine only.
func New(host Host, m *changeset.Manager) *View {
	v := &View{host: host, m: m, seen: map[string]bool{}, tabs: map[string]*reviewTab{}, layout: layoutUnified,
		pollEvery: changePollEvery, stop: make(chan struct{}), refreshed: make(chan struct{}, 1)}
	v.async = v.busy.Go
	v.list = newChangeList(func() int { return len(v.sets) }, v.row)
	v.list.OnSelected = v.selected
	v.empty = widget.NewLabel(emptyHint)
	v.item = container.NewTabItem(Title, container.NewStack(v.list, container.NewCenter(v.empty)))
	v.showEmpty()
	return v
}

// emptyHint is what the pane says while no change set is listed.
const emptyHint = "No change sets yet: when an agent proposes changes, they wait here for you."

// showEmpty shows the hint exactly while the list is empty.
func (v *View) showEmpty() {
	if len(v.sets) == 0 {
		v.empty.Show()
	} else {
		v.empty.Hide()
	}
}

// start loads the list and reloads it whenever the store file changes
// until stopPolling; where the store cannot be watched it polls every
// interval instead.
func (v *View) start(every time.Duration) {
	v.poll.Go(func() {
		sw, err := changeset.WatchStore(v.m, v.pollOnce)
		v.reload() // after the watch starts, so no change falls between
		if err == nil {
			<-v.stop
			sw.Close()
			return
		}
		v.notify(err.Error() + "; proposals from other processes show up within " + every.String())
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
// once; it must not be called from inside a Host.Do the poller waits on.
func (v *View) stopPolling() {
	select {
	case <-v.stop:
	default:
		close(v.stop)
	}
	v.poll.Wait()
}

// reload reads the list from the store and shows it. Off the main goroutine.
func (v *View) reload() { v.loadList(true) }

// pollOnce shows the list only when it changed since the last one shown.
// Off the main goroutine.
func (v *View) pollOnce() { v.loadList(false) }

func (v *View) loadList(always bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	sets, err := v.m.List("")
	if err != nil {
		if msg := "change sets: " + err.Error(); msg != v.lastErr { // once, not every poll
			v.lastErr = msg
			v.notify(msg)
		}
		return
	}
	v.lastErr = ""
	fp := listFingerprint(sets)
	if !always && fp == v.lastFP {
		return
	}
	v.lastFP = fp
	v.do(func() { v.setSets(sets) })
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
	fmt.Fprintf(&b, "%s %s %q h%d", cs.ID, cs.State, cs.Reason, len(cs.History))
	for _, f := range cs.Files {
		fmt.Fprintf(&b, " %s=%s %v %q %v %d/%d", f.Path, f.State, f.Hunks, f.Reason, f.EditedByPerson, f.Added, f.Removed)
	}
	return b.String()
}

// setSets shows a fresh list, announces pending sets not seen before (but
// not those already there when the window opened), updates the badge and
// rebuilds the open review tabs whose set changed. Main goroutine only.
func (v *View) setSets(sets []changeset.ChangeSet) {
	v.sets = sets
	for _, cs := range sets {
		if v.loaded {
			v.announce(cs)
		}
		v.seen[cs.ID] = true
	}
	v.loaded = true
	v.list.Refresh()
	if id := v.openWhenListed; id != "" && v.index(id) >= 0 {
		v.openWhenListed = ""
		v.openTab(id, false)
	}
	v.showEmpty()
	v.setBadge()
	for id, t := range v.tabs {
		if i := v.index(id); i >= 0 && setFingerprint(sets[i]) != t.fp {
			v.load(t)
		}
	}
	v.host.ProposalsChanged()
	select {
	case v.refreshed <- struct{}{}:
	default:
	}
}

// selected shows the set of row id. A row the person picked gives the
// list the keyboard: Fyne's tap focuses an extended List's inner List,
// which is not on the canvas. Main goroutine only.
func (v *View) selected(id widget.ListItemID) {
	v.open(v.sets[id].ID)
	if c := fyne.CurrentApp().Driver().CanvasForObject(v.list); c != nil {
		c.Focus(v.list)
	}
	v.list.Unselect(id) // the tab shows which is open; a second click on the row opens it again
}

// announce says in the status bar that a pending change set arrived, once
// per id. Main goroutine only.
func (v *View) announce(cs changeset.ChangeSet) {
	if v.seen[cs.ID] || cs.State != changeset.StatePending {
		return
	}
	v.seen[cs.ID] = true
	client := cs.Client
	if client == "" {
		client = "an agent"
	}
	v.host.Status(fmt.Sprintf("%s proposed %s (%s)", changeset.MarkControls(client), changeset.MarkControls(cs.Title), cs.ID))
	if v.index(cs.ID) >= 0 {
		v.openTab(cs.ID, false) // shown for review, as trestle_change_set_propose promises
	} else {
		v.openWhenListed = cs.ID
	}
}

// setBadge shows how many change sets await a decision in the tab title.
func (v *View) setBadge() {
	n := 0
	for _, cs := range v.sets {
		if cs.Undecided() {
			n++
		}
	}
	title := Title
	if n > 0 {
		title = fmt.Sprintf("%s (%d)", Title, n)
	}
	if v.item.Text != title {
		v.item.Text = title
		v.host.TitleChanged()
	}
}

func (v *View) index(id string) int {
	for i, cs := range v.sets {
		if cs.ID == id {
			return i
		}
	}
	return -1
}

// row fills one list row: the title, and under it the rest.
func (v *View) row(id widget.ListItemID, o fyne.CanvasObject) {
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

// open opens change set id for review in a tab of the editor area, or
// shows its tab, and reads the set whole. Main goroutine only.
func (v *View) open(id string) { v.openTab(id, true) }

// openTab is open; without focus the tab is selected only when no file's
// tab is (ReviewHost.ShowTab).
func (v *View) openTab(id string, focus bool) {
	i := v.index(id)
	if i < 0 {
		return
	}
	t := v.tabs[id]
	if t == nil {
		t = newReviewTab(v, v.sets[i])
		v.tabs[id] = t
		v.load(t)
	}
	v.host.ShowTab(t.item, focus)
}

// load reads t's set whole (lists hold no file bodies) and diffs its
// files (a 5,000-line file takes a while) off the main goroutine, then
// builds t. Main goroutine only.
func (v *View) load(t *reviewTab) {
	id := t.id
	t.fp = setFingerprint(v.sets[v.index(id)])
	v.async(func() {
		full, err := v.m.Full(id)
		hunks := make(map[string][]changeset.Hunk, len(full.Files))
		for _, f := range full.Files {
			hunks[f.Path] = changeset.Hunks(f)
		}
		v.do(func() {
			if err != nil {
				v.notify("change sets: " + err.Error())
				return
			}
			t.build(full, hunks)
		})
	})
}
