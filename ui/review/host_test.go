package review

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
	"trestle/app/project"
	"trestle/app/store"
	"trestle/app/workbench"
	"trestle/internal/testfix"
)

const (
	libGo  = "package lib\n"
	mainGo = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n"
)

// testHost is the window around the review in these tests: a real Fyne
// test window with an editor area (DocTabs) above the pane, and a real
// project on disk. buffers stand for editors with unsaved text (the real
// window's editors are ui's tests).
type testHost struct {
	win       fyne.Window
	docs      *container.DocTabs
	project   *project.Project
	buffers   map[string]string   // unsaved editor text, by path
	status    []string            // every status message, in order
	written   []map[string]string // every FilesWritten
	proposals int                 // ProposalsChanged calls
}

func (h *testHost) Window() fyne.Window        { return h.win }
func (h *testHost) ShowDialog(d dialog.Dialog) { d.Show() }
func (h *testHost) Status(msg string)          { h.status = append(h.status, msg) }
func (h *testHost) TitleChanged()              {}
func (h *testHost) ProposalsChanged()          { h.proposals++ }

// Do runs fn with fyne.Do, which the test driver runs inline.
func (h *testHost) Do(fn func()) { fyne.Do(fn) }
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

func (h *testHost) ShowTab(item *container.TabItem, focus bool) {
	if !slices.Contains(h.docs.Items, item) {
		h.docs.Append(item)
	}
	if focus || h.docs.Selected() == nil {
		h.docs.Select(item)
	}
}

func (h *testHost) Unsaved(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, ok := h.buffers[p]; ok {
			out = append(out, p)
		}
	}
	return out
}

func (h *testHost) Save(paths []string, done func(bool)) {
	for _, p := range paths {
		if err := os.WriteFile(filepath.Join(h.project.Root, p), []byte(h.buffers[p]), 0o644); err != nil {
			done(false)
			return
		}
		delete(h.buffers, p)
	}
	done(true)
}

func (h *testHost) CurrentText(_ context.Context, path project.Path) (string, bool, error) {
	if text, ok := h.buffers[path.Rel()]; ok {
		return text, true, nil
	}
	return diskRead(h.project)(path)
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
func newChangesHost(t testing.TB) (*testHost, *changeset.Manager, string) {
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
	p, err := project.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	h := &testHost{win: a.NewWindow("review"), docs: container.NewDocTabs(), project: p, buffers: map[string]string{}}
	h.win.Resize(fyne.NewSize(1100, 720))
	t.Cleanup(h.win.Close)
	path := filepath.Join(t.TempDir(), "state.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return h, changeset.NewManager(db, p), path
}

// startChanges makes the view, waits for its first list, then runs its
// work inline (the store watcher would reload on the test's own applies
// from its goroutine, which the test driver runs inline beside the test).
func startChanges(t testing.TB, h *testHost, m *changeset.Manager) *View {
	t.Helper()
	v := startChangesWatched(t, h, m)
	v.RunInline()
	return v
}

// startChangesWatched is startChanges with the store watcher left running;
// the fallback poll is an hour, so nothing polls.
func startChangesWatched(t testing.TB, h *testHost, m *changeset.Manager) *View {
	t.Helper()
	v := New(h, m)
	v.pollEvery = time.Hour
	split := container.NewVSplit(h.docs, v.item.Content)
	h.win.SetContent(split)
	v.Start()
	t.Cleanup(func() { v.stopPolling(); v.busy.Wait() })
	waitRefreshed(t, v)
	return v
}

func waitRefreshed(t testing.TB, v *View) {
	t.Helper()
	testfix.Receive(t, 30*time.Second, "the change sets list shown", v.refreshed)
}

// diskRead reads project files from disk.
func diskRead(p *project.Project) changeset.ReadFunc {
	return workbench.Reader{Project: p}.Func(context.Background())
}

func readProject(t *testing.T, h *testHost, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(h.project.Root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
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

// tapDialogButton taps the button of the top overlay labelled text.
func tapDialogButton(t *testing.T, win fyne.Window, text string) {
	t.Helper()
	top := win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatalf("no dialog to tap %q in", text)
	}
	for _, o := range test.LaidOutObjects(top) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			test.Tap(b)
			return
		}
	}
	t.Fatalf("the dialog has no %q button:\n%s", text, overlayText(win))
}
