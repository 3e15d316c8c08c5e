package ui

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
	"trestle/app/project"
	"trestle/app/store"
	"trestle/app/watch"
	"trestle/internal/testfix"
)

// The editor in the window, driven as a person drives it: taps at a
// position on the canvas, keys through the canvas.

// newFsnotifyWindow is a test window (as newTestWindowWith) on a copy of
// fsnotify's library, with a change-set store and its review running.
func newFsnotifyWindow(t *testing.T) (*Window, *changeset.Manager) {
	t.Helper()
	p, err := project.Open(testfix.CopyLibrary(t, "github.com/fsnotify/fsnotify", ".", "internal"))
	if err != nil {
		t.Fatal(err)
	}
	w := newTestWindowOn(t, p)
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	m := changeset.NewManager(db, w.project)
	startChanges(t, w, m)
	return w, m
}

// openFiles opens each of rels in a tab, the last one active.
func openFiles(t *testing.T, w *Window, rels ...string) {
	t.Helper()
	for _, rel := range rels {
		if err := w.Open(context.Background(), resolved(t, w, rel), 0); err != nil {
			t.Fatal(err)
		}
	}
}

// walkShown calls fn with every visible object under o and its position
// relative to o's parent, as the canvas lays them out, until fn returns
// true.
func walkShown(o fyne.CanvasObject, at fyne.Position, fn func(fyne.CanvasObject, fyne.Position) bool) bool {
	if o == nil || !o.Visible() {
		return false
	}
	at = at.Add(o.Position())
	if fn(o, at) {
		return true
	}
	var children []fyne.CanvasObject
	switch v := o.(type) {
	case *fyne.Container:
		children = v.Objects
	case fyne.Widget:
		children = test.WidgetRenderer(v).Objects()
	}
	for _, c := range children {
		if walkShown(c, at, fn) {
			return true
		}
	}
	return false
}

// absolute returns where o is on c, and whether c shows it.
func absolute(c fyne.Canvas, o fyne.CanvasObject) (pos fyne.Position, shown bool) {
	walkShown(c.Content(), fyne.Position{}, func(x fyne.CanvasObject, at fyne.Position) bool {
		if x == o {
			pos, shown = at, true
		}
		return shown
	})
	return pos, shown
}

// textIn returns where on the canvas the middle of the visible text s in
// o is, or fails the test.
func textIn(t *testing.T, c fyne.Canvas, o fyne.CanvasObject, s string) fyne.Position {
	t.Helper()
	var found fyne.CanvasObject
	walkShown(o, fyne.Position{}, func(x fyne.CanvasObject, _ fyne.Position) bool {
		if txt, ok := x.(*canvas.Text); ok && txt.Text == s {
			found = x
		}
		return found != nil
	})
	if found == nil {
		t.Fatalf("no text %q shown", s)
	}
	at, ok := absolute(c, found)
	if !ok {
		t.Fatalf("the text %q is not on the canvas", s)
	}
	return at.Add(fyne.NewPos(found.Size().Width/2, found.Size().Height/2))
}

// tapTab taps the header of the tab titled title, at its text.
func tapTab(t *testing.T, w *Window, title string) {
	t.Helper()
	c := w.win.Canvas()
	at := textIn(t, c, w.tabs.docs, title)
	test.TapCanvas(c, at)
}

// onCanvas reports whether o is drawn: it and every parent up to the
// canvas's content are visible.
func onCanvas(c fyne.Canvas, o fyne.CanvasObject) bool {
	_, shown := absolute(c, o)
	return shown
}

// typeOnCanvas types s as keys reach the window: to whatever has the focus.
func typeOnCanvas(c fyne.Canvas, s string) {
	for _, r := range s {
		if f := c.Focused(); f != nil {
			f.TypedRune(r)
		}
	}
}

// TestFileUnderAProposalIsEditableAfterATabSwitch: an agent proposes to
// two open files of fsnotify; the one whose tab was not active shows its
// text and takes typing once the person taps its tab (it was blank: the
// tab's content was swapped for the proposal strip while Fyne had hidden
// the editor, and nothing showed it again).
func TestFileUnderAProposalIsEditableAfterATabSwitch(t *testing.T) {
	w, m := newFsnotifyWindow(t)
	w.Window().Resize(fyne.NewSize(1100, 720))
	openFiles(t, w, "fsnotify.go", "backend_inotify.go")
	cs, err := m.Propose(w.review.currentReader(), changeset.Proposal{Title: "Name the errors", Client: "claude-code", Changes: []changeset.Change{
		{Path: "fsnotify.go", Action: changeset.ActionEdit, Edits: []changeset.Edit{{OldText: "func NewWatcher() (*Watcher, error) {", NewText: "func NewWatcher() (w *Watcher, err error) {"}}},
		{Path: "backend_inotify.go", Action: changeset.ActionEdit, Edits: []changeset.Edit{{OldText: "func newWatches() *watches {", NewText: "func newWatches() (ws *watches) {"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	w.ChangeSetProposed(cs) // as the agent's tool call tells the window
	testfix.Wait(t, 30*time.Second, "the proposal strip on both tabs", func() bool {
		return len(w.review.inline) == 2
	})
	c := w.win.Canvas()
	for _, name := range []string{"fsnotify.go", "backend_inotify.go", "fsnotify.go"} {
		tapTab(t, w, name)
		if got := w.tabs.active(); got != name {
			t.Fatalf("tapping the tab %s left %q active", name, got)
		}
		e := w.tabs.find(name).view
		if !onCanvas(c, e.Page()) {
			t.Fatalf("%s: its editor is not drawn after its tab was tapped (the tab shows blank)", name)
		}
		if c.Focused() != e.Page() {
			t.Fatalf("%s: the keyboard is on %T, not its editor", name, c.Focused())
		}
	}
	e := w.tabs.find("fsnotify.go").view
	typeOnCanvas(c, "// typed\n")
	if got := e.Buffer().Line(0); got != "// typed" {
		t.Errorf("typing into fsnotify.go under a proposal: line 1 is %q", got)
	}
	if !strings.Contains(w.tabs.find("fsnotify.go").item.Text, dirtyMark) {
		t.Errorf("the tab title %q does not show the unsaved edit", w.tabs.find("fsnotify.go").item.Text)
	}
	// Show Inline in that tab shows the hunk; Back to Editor gives the
	// editor the keyboard again.
	tab := w.tabs.find("fsnotify.go")
	test.TapCanvas(c, textIn(t, c, tab.item.Content, "Show Inline"))
	if text := objectTexts(tab.item.Content); !strings.Contains(text, "(w *Watcher, err error)") {
		t.Fatalf("Show Inline in fsnotify.go shows:\n%.400s", text)
	}
	test.TapCanvas(c, textIn(t, c, tab.item.Content, "Back to Editor"))
	if !onCanvas(c, e.Page()) || c.Focused() != e.Page() {
		t.Fatalf("after Back to Editor the editor is drawn %v, the keyboard on %T", onCanvas(c, e.Page()), c.Focused())
	}
	typeOnCanvas(c, "x")
	if got := e.Buffer().Line(1); !strings.HasPrefix(got, "x") {
		t.Errorf("typing after Back to Editor: line 2 is %q", got)
	}
}

// TestTabHeaderTapSwitchesTabsInAScrolledEditor: with the active editor
// scrolled down by the wheel, a tap on another tab's header switches to
// it and leaves the caret where it was (the page, as large as the text,
// took the tap and moved the caret).
func TestTabHeaderTapSwitchesTabsInAScrolledEditor(t *testing.T) {
	w, _ := newFsnotifyWindow(t)
	w.Window().Resize(fyne.NewSize(1100, 720))
	openFiles(t, w, "fsnotify.go", "backend_inotify.go")
	c := w.win.Canvas()
	e := w.tabs.find("backend_inotify.go").view
	at, _ := absolute(c, e)
	mid := at.Add(fyne.NewPos(e.Size().Width/2, e.Size().Height/2))
	for range 40 {
		test.Scroll(c, mid, 0, -25) // a notch of the wheel
	}
	if e.Caret().Line != 0 {
		t.Fatalf("scrolling moved the caret to %v", e.Caret())
	}
	if first, _ := e.VisibleLines(); first < 100 {
		t.Fatalf("40 notches of the wheel scrolled only to line %d", first)
	}
	tapTab(t, w, "fsnotify.go")
	if got := w.tabs.active(); got != "fsnotify.go" {
		t.Errorf("a tap on the fsnotify.go tab header left %q active", got)
	}
	if e.Caret().Line != 0 {
		t.Errorf("the tap on the tab header moved backend_inotify.go's caret to %v", e.Caret())
	}
}

// TestDraggingTheSplitDrawsTheUncoveredRows: dragging the divider between
// the editors and the panes up, then down again, makes the editor taller,
// and the rows it uncovers are drawn at once (they stayed blank until the
// next scroll).
func TestDraggingTheSplitDrawsTheUncoveredRows(t *testing.T) {
	w, _ := newFsnotifyWindow(t)
	w.Window().Resize(fyne.NewSize(1100, 720))
	openFiles(t, w, "backend_inotify.go")
	c := w.win.Canvas()
	e := w.tabs.find("backend_inotify.go").view
	drag := func(dy float32) {
		t.Helper()
		area, _ := absolute(c, w.tabs.content)
		height := w.tabs.content.Size().Height
		test.Drag(c, area.Add(fyne.NewPos(w.tabs.content.Size().Width/2, height+2)), 0, dy)
		if got := w.tabs.content.Size().Height; got < height+dy-10 || got > height+dy+10 {
			t.Fatalf("a drag of the divider by %v px made the editor area %v px high, %v before", dy, got, height)
		}
	}
	drag(-200)
	_, before := e.VisibleLines()
	drag(150)
	if _, after := e.VisibleLines(); after < before+6 {
		t.Errorf("after the editor grew 150 px it draws %d rows, %d before", after, before)
	}
}

// shortcutOnCanvas sends s as a key press does: to the focused widget when
// it takes shortcuts, else to the canvas.
func shortcutOnCanvas(c fyne.Canvas, s fyne.Shortcut) {
	if f, ok := c.Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(s)
		return
	}
	c.(fyne.Shortcutable).TypedShortcut(s)
}

// TestSavingUnchangedTextLeavesTheProposalPending: Ctrl+S on a file under
// a pending proposal, without an edit, writes the same text; the watcher
// sees the write, and the proposal stays pending (it went stale). A real
// edit saved makes it stale.
func TestSavingUnchangedTextLeavesTheProposalPending(t *testing.T) {
	w, m := newChangesWindow(t)
	openFiles(t, w, "main.go")
	cs := proposeMain(t, w, m)
	startChanges(t, w, m)
	// The real watcher sees the saves; its batches are handed to the window
	// on the test's goroutine, as the desktop driver hands them to the main
	// one (the test driver would run the window's part on the watcher's
	// goroutine, beside the save's).
	saw := make(chan []watch.Event, 64)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wt, err := watch.Start(ctx, w.project.Root, watch.Options{OnBatch: func(ev []watch.Event) { saw <- ev }})
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Close()
	<-wt.Ready()
	c := w.win.Canvas()
	save := func() {
		t.Helper()
		shortcutOnCanvas(c, &desktop.CustomShortcut{KeyName: fyne.KeyS, Modifier: fyne.KeyModifierShortcutDefault})
		w.tabs.saving.Wait()
		for deadline := time.After(time.Minute); ; {
			select {
			case ev := <-saw:
				w.filesChanged(ev)
				if slices.ContainsFunc(ev, func(e watch.Event) bool { return e.Path == "main.go" }) {
					return // changeSetsSawFiles ran first, inline in tests
				}
			case <-deadline:
				t.Fatal("the watcher never saw main.go saved")
			}
		}
	}
	state := func() string {
		got, err := m.Get(cs.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.State
	}
	save()
	if s := state(); s != changeset.StatePending {
		t.Fatalf("saving main.go without an edit made its proposal %s", s)
	}
	typeOnCanvas(c, "// mine\n")
	save()
	if s := state(); s != changeset.StateStale {
		t.Fatalf("saving an edit of main.go left its proposal %s", s)
	}
}

// TestKeysNeverGoToAnEditorBehindItsProposal: while a tab shows an agent's
// proposal inline in place of its editor, typing changes no file: not the
// editor Show Inline hid, nor the one a Ctrl+Tab to that tab left behind.
// Seen under Xvfb on fsnotify: "zz" typed after Show Inline went into
// backend_inotify.go behind the hunks, and "qq" typed after Ctrl+Tab into
// fsnotify.go in the tab left (Fyne: "Failed to focus object which is not
// part of the canvas"). Back to Editor gives the editor the keys again.
func TestKeysNeverGoToAnEditorBehindItsProposal(t *testing.T) {
	w, m := newFsnotifyWindow(t)
	w.installActions(Actions{})
	w.Window().Resize(fyne.NewSize(1100, 720))
	openFiles(t, w, "fsnotify.go", "backend_inotify.go")
	cs, err := m.Propose(w.review.currentReader(), changeset.Proposal{Title: "Document Close", Client: "claude-code", Changes: []changeset.Change{
		{Path: "fsnotify.go", Action: changeset.ActionEdit, Edits: []changeset.Edit{{OldText: "func NewWatcher() (*Watcher, error) {", NewText: "func NewWatcher() (w *Watcher, err error) {"}}},
		{Path: "backend_inotify.go", Action: changeset.ActionEdit, Edits: []changeset.Edit{{OldText: "func newWatches() *watches {", NewText: "func newWatches() (ws *watches) {"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	w.ChangeSetProposed(cs)
	testfix.Wait(t, 30*time.Second, "the proposal strip on both tabs", func() bool {
		return len(w.review.inline) == 2
	})
	c := w.win.Canvas()
	texts := func() [2]string {
		return [2]string{w.tabs.find("fsnotify.go").view.Buffer().Text(), w.tabs.find("backend_inotify.go").view.Buffer().Text()}
	}
	before := texts()
	inotify := w.tabs.find("backend_inotify.go")
	tapTab(t, w, "fsnotify.go")
	tapTab(t, w, "backend_inotify.go")
	if c.Focused() != fyne.Focusable(inotify.view.Page()) {
		t.Fatalf("tapping backend_inotify.go's tab left the keyboard on %T", c.Focused())
	}
	clickButton(t, inotify.item.Content, "Show Inline")
	if text := objectTexts(inotify.item.Content); !strings.Contains(text, "(ws *watches)") {
		t.Fatalf("Show Inline in backend_inotify.go shows:\n%.400s", text)
	}
	typeWherever(w.win, "zz")
	if texts() != before {
		t.Fatalf("typing with backend_inotify.go's proposal shown inline changed a file behind it (keyboard on %T)", c.Focused())
	}
	tapTab(t, w, "fsnotify.go")
	if c.Focused() != fyne.Focusable(w.tabs.find("fsnotify.go").view.Page()) {
		t.Fatalf("tapping fsnotify.go's tab left the keyboard on %T", c.Focused())
	}
	pressShortcut(w.win, ctrl(fyne.KeyTab, false))
	if got := w.tabs.active(); got != "backend_inotify.go" {
		t.Fatalf("Ctrl+Tab from fsnotify.go selected %q", got)
	}
	typeWherever(w.win, "qq")
	if texts() != before {
		t.Fatalf("typing after Ctrl+Tab to the tab showing its proposal inline changed a file (keyboard on %T)", c.Focused())
	}
	clickButton(t, inotify.item.Content, "Back to Editor")
	typeText(t, w.win, "x")
	if got := inotify.view.Buffer().Line(0); !strings.HasPrefix(got, "x//go:build") {
		t.Errorf("typing after Back to Editor: line 1 of backend_inotify.go is %q", got)
	}
}

// clickButton clicks the button labelled label shown in o as the desktop
// driver does: a click on a focusable widget such as a button leaves the
// keyboard where it was (glfw's processMouseClicked), where test.Tap and
// test.TapCanvas would take it from everything first.
func clickButton(t *testing.T, o fyne.CanvasObject, label string) {
	t.Helper()
	var b *widget.Button
	walkShown(o, fyne.Position{}, func(x fyne.CanvasObject, _ fyne.Position) bool {
		if bt, ok := buttonOf(x); ok && bt.Text == label {
			b = bt
		}
		return b != nil
	})
	if b == nil {
		t.Fatalf("no button %q shown", label)
	}
	b.Tapped(&fyne.PointEvent{})
}

// typeWherever types s as the desktop driver delivers typed runes: to the
// focused widget, else to the canvas's handler, else nowhere.
func typeWherever(win fyne.Window, s string) {
	c := win.Canvas()
	for _, r := range s {
		if f := c.Focused(); f != nil {
			f.TypedRune(r)
		} else if fn := c.OnTypedRune(); fn != nil {
			fn(r)
		}
	}
}

// TestMenuKeysNeverActOnAnEditorBehindItsProposal: with a proposal shown
// inline in place of its editor, the window's keys that act on "the
// active editor" (Ctrl+G, F2, F12, the Edit menu's Paste and Undo) must
// not reach the hidden editor: Paste changed backend_inotify.go behind the
// hunks and Ctrl+G opened a bar nobody could see. They say what to do.
func TestMenuKeysNeverActOnAnEditorBehindItsProposal(t *testing.T) {
	w, m := newFsnotifyWindow(t)
	w.installActions(Actions{})
	w.Window().Resize(fyne.NewSize(1100, 720))
	openFiles(t, w, "fsnotify.go", "backend_inotify.go")
	cs, err := m.Propose(w.review.currentReader(), changeset.Proposal{Title: "Document Close", Client: "claude-code", Changes: []changeset.Change{
		{Path: "backend_inotify.go", Action: changeset.ActionEdit, Edits: []changeset.Edit{{OldText: "func newWatches() *watches {", NewText: "func newWatches() (ws *watches) {"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	w.ChangeSetProposed(cs)
	testfix.Wait(t, 30*time.Second, "the proposal strip on backend_inotify.go", func() bool {
		return len(w.review.inline) == 1
	})
	c := w.win.Canvas()
	inotify := w.tabs.find("backend_inotify.go")
	tapTab(t, w, "fsnotify.go")
	tapTab(t, w, "backend_inotify.go")
	typeText(t, w.win, "y") // an edit for Undo to take back
	before := inotify.view.Buffer().Text()
	clickButton(t, inotify.item.Content, "Show Inline")
	fyne.CurrentApp().Clipboard().SetContent("PASTED")
	for _, k := range []struct {
		name string
		sc   fyne.Shortcut
	}{
		{"Ctrl+V", &fyne.ShortcutPaste{Clipboard: fyne.CurrentApp().Clipboard()}},
		{"Ctrl+Z", &fyne.ShortcutUndo{}},
		{"Ctrl+G", ctrl(fyne.KeyG, false)},
		{"Ctrl+F", ctrl(fyne.KeyF, false)},
		{"F2", &desktop.CustomShortcut{KeyName: fyne.KeyF2}},
		{"F12", &desktop.CustomShortcut{KeyName: fyne.KeyF12}},
	} {
		w.status.message.SetText("")
		pressShortcut(w.win, k.sc)
		if got := inotify.view.Buffer().Text(); got != before {
			t.Fatalf("%s with backend_inotify.go's proposal shown inline changed the file behind it", k.name)
		}
		if f := c.Focused(); f != nil {
			t.Fatalf("%s with the proposal shown inline gave the keyboard to %T", k.name, f)
		}
		if top := c.Overlays().Top(); top != nil {
			t.Fatalf("%s with the proposal shown inline opened %T", k.name, top)
		}
		if msg := w.status.message.Text; !strings.Contains(msg, "Back to Editor") {
			t.Fatalf("%s with the proposal shown inline: status %q does not say to go Back to Editor", k.name, msg)
		}
	}
	clickButton(t, inotify.item.Content, "Back to Editor")
	pressShortcut(w.win, &fyne.ShortcutUndo{})
	testfix.Wait(t, 30*time.Second, "Undo back in the editor takes the typed y back", func() bool {
		return !strings.HasPrefix(inotify.view.Buffer().Line(0), "y")
	})
}
