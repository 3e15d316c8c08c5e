package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
	"trestle/app/errdefs"
	"trestle/app/store"
	"trestle/app/textbuf"
	"trestle/internal/testfix"
)

const libGo = "package lib\n"

// newChangesWindow is a test window with a store in a temp folder and a
// Manager on it, the view not yet set.
func newChangesWindow(t *testing.T) (*Window, *changeset.Manager) {
	t.Helper()
	w := newTestWindow(t)
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	return w, changeset.NewManager(db, w.project)
}

// startChanges sets the window's review and makes it run its work inline:
// the test driver runs fyne.Do inline on any goroutine.
func startChanges(t *testing.T, w *Window, m *changeset.Manager) {
	t.Helper()
	w.review.connect(m)
	t.Cleanup(w.review.view.Stop)
	testfix.Receive(t, 30*time.Second, "the change sets list shown", w.review.view.Refreshed())
	w.review.view.RunInline()
}

// proposeMain proposes an edit of main.go, based on what the window shows.
func proposeMain(t *testing.T, w *Window, m *changeset.Manager) changeset.ChangeSet {
	t.Helper()
	cs, err := m.Propose(w.review.currentReader(),
		changeset.Proposal{Title: "Say hello", Client: "claude-code", Changes: []changeset.Change{
			{Path: "main.go", Action: changeset.ActionEdit, Edits: []changeset.Edit{{OldText: `"hi"`, NewText: `"hello"`}}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func readProject(t *testing.T, w *Window, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(w.project.Root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestReviewApplyShowsTheNewTextInItsTab: an applied file's open tab shows
// the new text, saved.
func TestReviewApplyShowsTheNewTextInItsTab(t *testing.T) {
	w, m := newChangesWindow(t)
	if err := w.Open(context.Background(), resolved(t, w, "main.go"), 0); err != nil {
		t.Fatal(err)
	}
	cs := proposeMain(t, w, m)
	startChanges(t, w, m)
	if err := w.ApplyAsPerson(context.Background(), cs.ID); err != nil {
		t.Fatal(err)
	}
	if got := readProject(t, w, "main.go"); !strings.Contains(got, `"hello"`) {
		t.Errorf("main.go on disk:\n%s", got)
	}
	tab := w.tabs.find("main.go")
	if text := tab.view.Buffer().FileText(); !strings.Contains(text, `"hello"`) || tab.dirty() {
		t.Errorf("main.go's tab: dirty %v, text\n%s", tab.dirty(), text)
	}
}

func TestChangeSetsStaleWhenTheEditorBufferChanges(t *testing.T) {
	w, m := newChangesWindow(t)
	if err := w.Open(context.Background(), resolved(t, w, "main.go"), 0); err != nil {
		t.Fatal(err)
	}
	cs := proposeMain(t, w, m)
	startChanges(t, w, m)
	state := func() string {
		got, err := m.Get(cs.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.State
	}
	w.review.checkBufferAgainstProposals("main.go") // the buffer is the base: nothing changes
	if s := state(); s != changeset.StatePending {
		t.Fatalf("an unchanged buffer made the set %q", s)
	}
	e := w.tabs.find("main.go").view
	e.SetCaret(textbuf.Pos{})
	test.Type(e.Page(), "// typed\n")
	w.review.checkBufferAgainstProposals("main.go") // what the debounce timer runs
	if s := state(); s != changeset.StateStale {
		t.Fatalf("state %q after typing, want stale", s)
	}
}

func TestCurrentTextPrefersTheEditor(t *testing.T) {
	w, _ := newChangesWindow(t)
	ctx := context.Background()
	if err := w.Open(ctx, resolved(t, w, "main.go"), 0); err != nil {
		t.Fatal(err)
	}
	w.tabs.find("main.go").view.Buffer().Insert(textbuf.Pos{}, "// edited\n")
	tests := []struct {
		name, rel, want string
		exists          bool
		err             error
	}{
		{"editor", "main.go", "// edited\n" + mainGo, true, nil},
		{"disk", "lib/lib.go", libGo, true, nil},
		{"missing", "new.go", "", false, nil},
		{"outside", "../x.go", "", false, errdefs.ErrOutside},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, exists, err := w.review.currentText(ctx, tt.rel)
			if text != tt.want || exists != tt.exists || !errors.Is(err, tt.err) {
				t.Fatalf("got %q %v %v", text, exists, err)
			}
		})
	}
}

// typeInto inserts text at the top of rel's editor, as typing would,
// leaving it unsaved.
func typeInto(t *testing.T, w *Window, rel, text string) {
	t.Helper()
	e := w.tabs.find(rel).view
	e.SetCaret(textbuf.Pos{})
	test.Type(e.Page(), text)
	if !w.tabs.find(rel).dirty() {
		t.Fatalf("%s is not dirty after typing", rel)
	}
}

// TestReviewNeverWritesUnsavedEditsBehindTheirBack: the person has typed
// into main.go without saving, and the agent proposed a change on that
// text (trestle_read gives the buffer). The bug: Apply wrote the person's
// unsaved text to disk with the agent's change, silently. Now Apply asks
// first; Cancel writes nothing and keeps the buffer as it was; Save and
// Apply saves with the person's consent, then applies.
func TestReviewNeverWritesUnsavedEditsBehindTheirBack(t *testing.T) {
	w, m := newChangesWindow(t)
	if err := w.Open(context.Background(), resolved(t, w, "main.go"), 0); err != nil {
		t.Fatal(err)
	}
	typeInto(t, w, "main.go", "// mine, unsaved\n")
	cs := proposeMain(t, w, m)
	startChanges(t, w, m)

	apply := func() {
		if err := w.ApplyAsPerson(context.Background(), cs.ID); err != nil {
			t.Fatal(err)
		}
	}
	apply()
	if got := readProject(t, w, "main.go"); got != mainGo {
		t.Fatalf("Apply wrote main.go while its editor had unsaved edits:\n%s", got)
	}
	msg := overlayText(w)
	if !strings.Contains(msg, "main.go has unsaved edits") || !strings.Contains(msg, "never writes your unsaved text") {
		t.Fatalf("the apply did not ask about the unsaved edits; dialog: %q", msg)
	}
	tapOverlayButton(t, w, "Cancel")
	if got, _ := m.Get(cs.ID); got.State != changeset.StatePending {
		t.Errorf("after Cancel the set is %q, want pending", got.State)
	}
	// The agent reads why it is still pending: the note is written off
	// the main goroutine, so wait for it.
	held := func() bool {
		got, _ := m.Get(cs.ID)
		for _, e := range got.History {
			if e.Action == changeset.ActionHeld && strings.Contains(e.What, "apply held: main.go has unsaved edits") {
				return true
			}
		}
		return false
	}
	testfix.WaitFor(t, 30*time.Second, "the history saying the apply was held after Cancel", func() (any, bool) {
		got, _ := m.Get(cs.ID)
		return got.History, held()
	}, testfix.Every(10*time.Millisecond))
	tab := w.tabs.find("main.go")
	if text := tab.view.Buffer().FileText(); !strings.HasPrefix(text, "// mine, unsaved\n") || !tab.dirty() {
		t.Fatalf("Cancel changed the buffer: dirty %v\n%s", tab.dirty(), text)
	}

	apply()
	tapOverlayButton(t, w, "Save and Apply")
	w.tabs.saving.Wait() // the save, then the apply it runs
	got := readProject(t, w, "main.go")
	if !strings.HasPrefix(got, "// mine, unsaved\n") || !strings.Contains(got, `"hello"`) {
		t.Fatalf("after Save and Apply main.go holds:\n%s", got)
	}
	if text := tab.view.Buffer().FileText(); text != got || tab.dirty() {
		t.Errorf("the tab after the apply: dirty %v\n%s", tab.dirty(), text)
	}
	if st, _ := m.Get(cs.ID); st.State != changeset.StateApplied {
		t.Errorf("state %q, want applied", st.State)
	}
}

// overlayText is the text of every label in the top overlay.
func overlayText(w *Window) string {
	top := w.win.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	var b strings.Builder
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// tapOverlayButton taps the button labelled text in the top overlay.
func tapOverlayButton(t *testing.T, w *Window, text string) {
	t.Helper()
	top := w.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatalf("no dialog to tap %q in", text)
	}
	for _, o := range test.LaidOutObjects(top) {
		if b, ok := buttonOf(o); ok && b.Text == text {
			test.Tap(b)
			return
		}
	}
	t.Fatalf("no %q button in the dialog:\n%s", text, overlayText(w))
}

// TestReviewInlineInTheFileTab: a file a pending set touches shows a strip
// above its editor; Show Inline shows the whole file with the hunk in
// place (removed and added lines tinted) and Accept applies that hunk at
// once; then the strip goes and the editor shows the new text.
func TestReviewInlineInTheFileTab(t *testing.T) {
	w, m := newChangesWindow(t)
	if err := w.Open(context.Background(), resolved(t, w, "main.go"), 0); err != nil {
		t.Fatal(err)
	}
	cs := proposeMain(t, w, m)
	startChanges(t, w, m)
	tab := w.tabs.find("main.go")
	if tab.item.Content == fyne.CanvasObject(tab.view) {
		t.Fatal("main.go's tab shows no strip while a pending set touches it")
	}
	strip := objectTexts(tab.item.Content)
	if !strings.Contains(strip, "claude-code proposes changes to main.go in "+cs.ID) {
		t.Fatalf("the strip says %q", strip)
	}
	tapIn(t, tab.item.Content, "Show Inline")
	text := objectTexts(tab.item.Content)
	for _, want := range []string{"package main", `-    fmt.Println("hi")`, `+    fmt.Println("hello")`, "Hunk 1 · pending"} {
		if !strings.Contains(text, want) {
			t.Fatalf("the inline view lacks %q:\n%s", want, text)
		}
	}
	tapIn(t, tab.item.Content, "Accept")
	if got := readProject(t, w, "main.go"); !strings.Contains(got, `"hello"`) {
		t.Fatalf("Accept inline did not apply the hunk:\n%s", got)
	}
	if tab.item.Content != fyne.CanvasObject(tab.view) || !strings.Contains(tab.view.Buffer().FileText(), `"hello"`) {
		t.Errorf("after the apply the tab still shows the proposal, or its editor the old text")
	}
}

// objectTexts is the text of every label and grid row under o.
func objectTexts(o fyne.CanvasObject) string {
	var b strings.Builder
	for _, c := range test.LaidOutObjects(o) {
		switch c := c.(type) {
		case *widget.Label:
			b.WriteString(c.Text + "\n")
		case *widget.TextGrid:
			b.WriteString(c.Text() + "\n")
		}
	}
	return b.String()
}

// tapIn taps the first button labelled text under o.
func tapIn(t *testing.T, o fyne.CanvasObject, text string) {
	t.Helper()
	for _, c := range test.LaidOutObjects(o) {
		if b, ok := buttonOf(c); ok && b.Text == text {
			test.Tap(b)
			return
		}
	}
	t.Fatalf("no %q button in:\n%s", text, objectTexts(o))
}

// TestReviewTabIsNotAFile: a review tab in the editor area is not an open
// file: the agents' tab list skips it, saving all and the quit question
// pass over it, and closing it closes it.
func TestReviewTabIsNotAFile(t *testing.T) {
	w, m := newChangesWindow(t)
	if err := w.Open(context.Background(), resolved(t, w, "main.go"), 0); err != nil {
		t.Fatal(err)
	}
	cs := proposeMain(t, w, m)
	startChanges(t, w, m)
	if !w.review.showSet(cs.ID) || len(w.tabs.docs.Items) != 2 {
		t.Fatalf("no review tab beside main.go: %d tabs", len(w.tabs.docs.Items))
	}
	got, err := w.Tabs(context.Background())
	if err != nil || len(got) != 1 || got[0].Path != "main.go" || got[0].Active {
		t.Fatalf("the agents' tabs %v, %v; want main.go alone, not active", got, err)
	}
	if dirty := w.tabs.dirtyTabs(); len(dirty) != 0 {
		t.Fatalf("dirty tabs %v", dirty)
	}
	review := w.tabs.docs.Selected()
	w.tabs.askClose(review)
	if len(w.tabs.docs.Items) != 1 || w.tabs.active() != "main.go" {
		t.Fatalf("after closing the review: %d tabs, active %q", len(w.tabs.docs.Items), w.tabs.active())
	}
}

// TestReviewInlineReject: Reject in the inline view records the hunk
// rejected for the agent, writes nothing, and the tab goes back to its
// editor alone.
func TestReviewInlineReject(t *testing.T) {
	w, m := newChangesWindow(t)
	if err := w.Open(context.Background(), resolved(t, w, "main.go"), 0); err != nil {
		t.Fatal(err)
	}
	cs := proposeMain(t, w, m)
	startChanges(t, w, m)
	tab := w.tabs.find("main.go")
	tapIn(t, tab.item.Content, "Show Inline")
	tapIn(t, tab.item.Content, "Reject")
	if got := readProject(t, w, "main.go"); got != mainGo {
		t.Fatalf("Reject wrote main.go:\n%s", got)
	}
	got, err := m.Get(cs.ID)
	if err != nil || got.File("main.go").Hunks[0].State != changeset.FileRejected {
		t.Fatalf("the agent reads main.go's hunks %v (%v)", got.File("main.go").Hunks, err)
	}
	if tab.item.Content != fyne.CanvasObject(tab.view) {
		t.Error("the tab still shows the rejected proposal")
	}
}

// TestProposalDoesNotTakeTheEditor: a proposal arriving while the person
// types in main.go opens its review tab beside it, but main.go stays the
// selected tab and keeps the keyboard.
func TestProposalDoesNotTakeTheEditor(t *testing.T) {
	w, m := newChangesWindow(t)
	startChanges(t, w, m)
	if err := w.Open(context.Background(), resolved(t, w, "main.go"), 0); err != nil {
		t.Fatal(err)
	}
	page := w.tabs.find("main.go").view.Page()
	w.win.Canvas().Focus(page)
	cs := proposeMain(t, w, m)
	w.ChangeSetProposed(cs) // as trestle_change_set_propose tells the window
	if len(w.tabs.docs.Items) != 2 {
		t.Fatalf("%d tabs: the proposal did not open for review", len(w.tabs.docs.Items))
	}
	if w.tabs.active() != "main.go" || w.win.Canvas().Focused() != page {
		t.Fatalf("the proposal took the editor: active %q, focus %T", w.tabs.active(), w.win.Canvas().Focused())
	}
}

// TestPersonReadWaitsForASlowMainGoroutine: the bug: under load the
// person's Apply failed with "read main.go from its editor: the window did
// not answer within 2s: busy", since the review read the editor with the
// agents' bound. Now, with the main goroutine stuck past DefaultCallBound,
// an agent's read still answers busy but the person's read waits and gets
// the editor's text.
func TestPersonReadWaitsForASlowMainGoroutine(t *testing.T) {
	w, _ := newChangesWindow(t)
	ctx := context.Background()
	if err := w.Open(ctx, resolved(t, w, "main.go"), 0); err != nil {
		t.Fatal(err)
	}
	w.tabs.find("main.go").view.Buffer().Insert(textbuf.Pos{}, "// edited\n")
	_, queue := fakeMain(t)
	w.main.setQueue(func(fn func()) { queue <- fn })
	t.Cleanup(func() { w.main.setQueue(nil) })
	release := make(chan struct{})
	queue <- func() { <-release } // the main goroutine is stuck
	type result struct {
		text string
		err  error
	}
	person := make(chan result, 1)
	path := resolved(t, w, "main.go")
	go func() {
		text, _, err := reviewHost{w}.CurrentText(ctx, path)
		person <- result{text, err}
	}()
	// The person's read was asked first, so once the agent's read has
	// answered busy the person's has waited past DefaultCallBound too.
	if _, _, err := w.review.currentText(ctx, "main.go"); !errors.Is(err, errdefs.ErrBusy) {
		t.Fatalf("agent's read with the main goroutine stuck: err %v, want busy", err)
	}
	close(release)
	r := testfix.Receive(t, 60*time.Second, "the person's read", person)
	if r.err != nil || r.text != "// edited\n"+mainGo {
		t.Fatalf("person's read: %q, %v; want the editor's text", r.text, r.err)
	}
}
