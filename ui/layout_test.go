package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"trestle/app/changeset"
	"trestle/app/permission"
	"trestle/app/store"
	"trestle/internal/testfix"
)

func TestLayoutIsRestoredOnTheNextStart(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	a := test.NewTempApp(t)
	w := newWindow(a, newProject(t, map[string]string{"main.go": mainGo, "lib/lib.go": "package lib\n", "go.mod": "module m\n"}))
	defer w.status.stop()
	if err := db.SaveProjectState(w.project.Root, store.ProjectState{Policy: permission.PolicyDeny}); err != nil {
		t.Fatal(err)
	}
	w.installActions(Actions{Store: db})
	w.loading.Wait()
	ctx := context.Background()
	for _, rel := range []string{"lib/lib.go", "main.go", "go.mod"} {
		if err := w.Open(ctx, resolved(t, w, rel), 0); err != nil {
			t.Fatal(err)
		}
	}
	w.Open(ctx, resolved(t, w, "main.go"), 0)
	w.layout.treeSplit.SetOffset(0.3)
	w.Window().Close()
	if err := w.SaveLayout(); err != nil {
		t.Fatal(err)
	}

	again := newWindow(a, w.project)
	defer again.Window().Close()
	defer again.status.stop()
	again.installActions(Actions{Store: db})
	again.loading.Wait()
	got := tabs(t, again)
	if len(got) != 3 || got[0].Path != "lib/lib.go" || got[2].Path != "go.mod" || !got[1].Active {
		t.Fatalf("restored tabs %+v", got)
	}
	if off := again.layout.treeSplit.Offset; off < 0.29 || off > 0.31 {
		t.Fatalf("tree split %v", off)
	}
	st, _ := db.ProjectState(w.project.Root)
	if st.Policy != permission.PolicyDeny {
		t.Fatalf("saving the layout lost the policy: %+v", st)
	}
}

// TestTheProjectClosedLastOpensNext: two windows; the one closed last is
// the project a launch without a folder opens.
func TestTheProjectClosedLastOpensNext(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	a := test.NewTempApp(t)
	first := newWindow(a, newProject(t, map[string]string{"a.go": "package a\n"}))
	second := newWindow(a, newProject(t, map[string]string{"b.go": "package b\n"}))
	for _, w := range []*Window{first, second} {
		defer w.status.stop()
		if err := db.TouchProject(w.project.Root); err != nil { // opened: first, then second
			t.Fatal(err)
		}
		w.installActions(Actions{Store: db})
		w.loading.Wait()
	}
	second.Window().Close()
	if err := second.SaveLayout(); err != nil {
		t.Fatal(err)
	}
	first.Window().Close()
	if err := first.SaveLayout(); err != nil {
		t.Fatal(err)
	}
	if last, err := db.LastProject(); err != nil || last != first.project.Root {
		t.Fatalf("LastProject = %q, %v; want %s, closed last", last, err, first.project.Root)
	}
}

// TestTreeKeepsItsWidthAt1024: at 1024×700 the file tree is wide enough
// for a name two folders deep, whether the split was stored narrow (a
// layout saved at another size), dragged to the edge, or left as it starts.
func TestTreeKeepsItsWidthAt1024(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"internal/freelist/hashmap_test.go": "package freelist\n"})
	w.installActions(Actions{})
	w.win.Resize(fyne.NewSize(1024, 700))
	name := fyne.MeasureText("hashmap_test.go", theme.TextSize(), fyne.TextStyle{}).Width
	need := name + 2*theme.IconInlineSize() + 4*theme.Padding() // the folders' indent, the icon
	check := func(what string) {
		t.Helper()
		if got := w.tree.Size().Width; got < need {
			t.Errorf("%s: the tree is %v px wide at 1024, a name two folders deep needs %v", what, got, need)
		}
	}
	check("as it starts")
	w.layout.apply(store.ProjectState{Width: 1024, Height: 700, TreeSplit: 0.07, PaneSplit: 0.7}, nil)
	check("restored at 0.07")
	w.layout.treeSplit.SetOffset(0) // dragged to the left edge
	check("dragged to the edge")
	if min := w.win.Content().MinSize().Width; min > 1024 {
		t.Fatalf("the window needs %v px", min)
	}
}

// TestReviewFitsA1024x700Window: an agent's change set open for review in
// a 1024x700 window leaves the window that size. The file's line beside
// Unified / Side by side, Edit Proposed Text and Reject File… had some
// 70 px and wrapped a letter or two to a line, and the review's height
// grew the window to 854 px, its status bar off a 800 px screen (seen
// under Xvfb on fsnotify).
func TestReviewFitsA1024x700Window(t *testing.T) {
	w, m := newFsnotifyWindow(t)
	fyne.CurrentApp().Settings().SetTheme(newTheme(store.DefaultSettings())) // the sizes the window has
	w.installActions(Actions{})
	w.win.Resize(fyne.NewSize(1024, 700))
	openFiles(t, w, "fsnotify.go")
	cs, err := m.Propose(w.review.currentReader(), changeset.Proposal{Title: "Document Close", Client: "claude-code", Changes: []changeset.Change{
		{Path: "fsnotify.go", Action: changeset.ActionEdit, Edits: []changeset.Edit{{OldText: "func (w *Watcher) Close() error {", NewText: "// Close is safe to call twice.\nfunc (w *Watcher) Close() error {"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	w.ChangeSetProposed(cs)
	testfix.Wait(t, 30*time.Second, "the proposal strip on fsnotify.go", func() bool { return len(w.review.inline) == 1 })
	w.win.Canvas().Focus(w.tabs.find("fsnotify.go").view.Page())
	typeText(t, w.win, "// mine") // the proposal goes stale: its file's line says why, at length
	w.review.checkBufferAgainstProposals("fsnotify.go")
	clickButton(t, w.tabs.find("fsnotify.go").item.Content, "Open Review")
	if !strings.HasPrefix(w.tabs.docs.Selected().Text, "Review ") {
		t.Fatalf("Open Review selected the tab %q", w.tabs.docs.Selected().Text)
	}
	for range 2 { // lay the review out at its width: a wrapped line's height follows it
		w.win.Resize(fyne.NewSize(1024, 701))
		w.win.Resize(fyne.NewSize(1024, 700))
	}
	if min := w.win.Content().MinSize(); min.Height > 700 || min.Width > 1024 {
		t.Fatalf("with the review open the window needs %v, more than 1024x700", min)
	}
}

// TestSettingsFitA1024x700Window: Ctrl+, in a 1024x700 window opens
// Settings within it, every row reachable by scrolling and Save and
// Cancel clear of them. Its rows need some 740 px: the dialog drew Save
// and Cancel over Project trust and cut the Agents row off (seen under
// Xvfb).
func TestSettingsFitA1024x700Window(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"go.mod": "module example.com/m\n"})
	fyne.CurrentApp().Settings().SetTheme(newTheme(store.DefaultSettings())) // the sizes the window has
	w.installActions(Actions{})
	w.win.Resize(fyne.NewSize(1024, 700))
	pressShortcut(w.win, ctrl(fyne.KeyComma, false))
	c := w.win.Canvas()
	top := c.Overlays().Top()
	if top == nil {
		t.Fatal("Ctrl+, opened no dialog")
	}
	if min := top.MinSize(); min.Height > 700 || min.Width > 1024 {
		t.Fatalf("Settings needs %v, more than the 1024x700 window", min)
	}
	if findButton(c, "Save") == nil || findButton(c, "Edit agents…") == nil && w.panes.agent != nil {
		t.Fatal("Settings lacks its Save button or its last row")
	}
}
