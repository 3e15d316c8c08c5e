package ui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"trestle/app/errdefs"
	"trestle/app/permission"
	"trestle/app/project"
	"trestle/app/store"
	"trestle/app/workbench"
)

// Window is the window the MCP window tools drive.
var _ workbench.Window = (*Window)(nil)

const mainGo = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n"

func newTestWindow(t *testing.T) *Window {
	t.Helper()
	return newTestWindowWith(t, map[string]string{
		"main.go":    mainGo,
		"lib/lib.go": "package lib\n",
		"go.mod":     "module example.com/demo\n",
		"data/x.bin": "\x00\x01",
	})
}

// newTestWindowWith is a window on a new project of files, with only its
// widgets built (newWindow): a test takes the further steps of New it
// tries, with the hooks below in place first.
func newTestWindowWith(t *testing.T, files map[string]string) *Window {
	t.Helper()
	return newTestWindowOn(t, newProject(t, files))
}

// newTestWindowOn is newTestWindowWith on the project p.
func newTestWindowOn(t *testing.T, p *project.Project) *Window {
	t.Helper()
	a := test.NewTempApp(t)
	w := newWindow(a, p)
	// Fyne's test driver runs fyne.Do inline on the calling goroutine, so a
	// folder read on a goroutine would touch the tree beside the test: read
	// inline instead (TestWindowTreeReadsFoldersOffTheMainGoroutine checks
	// the real window's reads go off the main goroutine).
	w.files.async = func(fn func()) { fn() }
	// No timer of the window fires beside the test (the test driver would
	// run it there): no git refresh, ticking run time, toasts that go by
	// themselves (notices_test.go holds their clock), status messages that
	// clear, nor the debounced stale check of an edited buffer (a test that
	// wants it calls checkBufferAgainstProposals, as the timer would).
	w.main.holdTimers()
	t.Cleanup(func() {
		w.Window().Close()
		w.status.stop() // no timer may fire into a later test
		w.main.close()
		w.review.stopEditTimers()
	})
	return w
}

func tabs(t *testing.T, w *Window) []workbench.Tab {
	t.Helper()
	got, err := w.Tabs(context.Background())
	if err != nil {
		t.Fatalf("Tabs: %v", err)
	}
	for i := range got {
		got[i].Version = 0 // names a text: TestTabVersionsNameTheirText checks it
	}
	return got
}

func TestWindowTitle(t *testing.T) {
	w := newTestWindow(t)
	if got := w.Window().Title(); !strings.HasPrefix(got, "Trestle — ") {
		t.Errorf("title = %q", got)
	}
}

func TestWindowOpen(t *testing.T) {
	w := newTestWindow(t)
	ctx := context.Background()
	if got := tabs(t, w); len(got) != 0 {
		t.Fatalf("tabs before any Open: %v", got)
	}
	if !w.tabs.hint.Visible() {
		t.Error("the empty tab area shows no hint")
	}

	if err := w.Open(ctx, resolved(t, w, "main.go"), 3); err != nil {
		t.Fatalf("Open main.go: %v", err)
	}
	want := []workbench.Tab{{Path: "main.go", Active: true}}
	if got := tabs(t, w); !slices.Equal(got, want) {
		t.Fatalf("tabs = %v, want %v", got, want)
	}
	if w.tabs.hint.Visible() {
		t.Error("the hint still shows with a tab open")
	}
	if view := w.tabs.find("main.go").view; view.Caret().Line != 2 {
		t.Errorf("caret on line %d, want 3", view.Caret().Line+1)
	}

	if err := w.Open(ctx, resolved(t, w, "main.go"), 0); err != nil {
		t.Fatalf("Open main.go again: %v", err)
	}
	if got := tabs(t, w); !slices.Equal(got, want) {
		t.Fatalf("after opening again: tabs = %v, want %v", got, want)
	}

	if err := w.Open(ctx, resolved(t, w, "lib/lib.go"), 0); err != nil {
		t.Fatalf("Open lib/lib.go: %v", err)
	}
	want = []workbench.Tab{{Path: "main.go"}, {Path: "lib/lib.go", Active: true}}
	if got := tabs(t, w); !slices.Equal(got, want) {
		t.Fatalf("tabs = %v, want %v", got, want)
	}

	if err := w.Open(ctx, resolved(t, w, "main.go"), 0); err != nil {
		t.Fatal(err)
	}
	want = []workbench.Tab{{Path: "main.go", Active: true}, {Path: "lib/lib.go"}}
	if got := tabs(t, w); !slices.Equal(got, want) {
		t.Fatalf("after focusing main.go: tabs = %v, want %v", got, want)
	}
}

func TestWindowOpenErrors(t *testing.T) {
	w := newTestWindow(t)
	tests := []struct {
		name string
		path project.Path
		want error
	}{
		{name: "no path", path: project.Path{}, want: errdefs.ErrInvalid},
		{name: "missing", path: resolved(t, w, "missing.go"), want: errdefs.ErrNotFound},
		{name: "folder", path: resolved(t, w, "lib"), want: errdefs.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := w.Open(context.Background(), tt.path, 1); !errors.Is(err, tt.want) {
				t.Errorf("Open(%q) = %v, want %v", tt.path, err, tt.want)
			}
		})
	}
	if got := tabs(t, w); len(got) != 0 {
		t.Errorf("failed opens left tabs: %v", got)
	}
}

func TestWindowOpenBinaryShowsNotice(t *testing.T) {
	w := newTestWindow(t)
	if err := w.Open(context.Background(), resolved(t, w, "data/x.bin"), 0); err != nil {
		t.Fatal(err)
	}
	if tab := w.tabs.find("data/x.bin"); tab == nil || tab.view != nil {
		t.Fatalf("binary tab = %+v, want a notice tab", tab)
	}
	_, open, _, err := w.Buffer(context.Background(), resolved(t, w, "data/x.bin"))
	if err != nil || open {
		t.Errorf("Buffer of a notice tab: open = %v, err = %v; want no buffer", open, err)
	}
}

func TestWindowBuffer(t *testing.T) {
	w := newTestWindow(t)
	ctx := context.Background()
	if _, open, _, err := w.Buffer(ctx, resolved(t, w, "main.go")); err != nil || open {
		t.Fatalf("Buffer before Open: open = %v, err = %v", open, err)
	}
	if err := w.Open(ctx, resolved(t, w, "main.go"), 0); err != nil {
		t.Fatal(err)
	}
	text, open, dirty, err := w.Buffer(ctx, resolved(t, w, "./main.go"))
	if err != nil || !open || dirty || text != mainGo {
		t.Errorf("Buffer = %q, open %v, dirty %v, err %v", text, open, dirty, err)
	}
	// Buffer takes only a confined Path, and ../x never gets one.
	if _, err := w.project.Resolve("../x"); !errors.Is(err, errdefs.ErrOutside) {
		t.Errorf("Resolve(../x) err = %v, want errdefs.ErrOutside", err)
	}
}

func TestWindowCloseTab(t *testing.T) {
	w := newTestWindow(t)
	if err := w.Open(context.Background(), resolved(t, w, "main.go"), 0); err != nil {
		t.Fatal(err)
	}
	w.tabs.docs.CloseIntercept = nil
	item := w.tabs.find("main.go").item
	w.tabs.docs.Remove(item)
	w.tabs.closed(item)
	if got := tabs(t, w); len(got) != 0 {
		t.Errorf("tabs after close = %v", got)
	}
	if !w.tabs.hint.Visible() {
		t.Error("no hint after the last tab closed")
	}
}

func TestWindowTreeTapOpensFile(t *testing.T) {
	w := newTestWindow(t)
	if got := w.files.childUIDs(""); !slices.Equal(got, []string{"data", "lib", "go.mod", "main.go"}) {
		t.Fatalf("tree root = %q", got)
	}
	w.tree.Select("main.go") // OpenOnMain reads on a goroutine, then fyne.Do
	w.loading.Wait()
	if got := tabs(t, w); !slices.Equal(got, []workbench.Tab{{Path: "main.go", Active: true}}) {
		t.Errorf("tabs = %v", got)
	}
}

func TestWindowStatus(t *testing.T) {
	w := newTestWindow(t)
	if got := w.status.mcp.Text; got != "MCP: off" {
		t.Errorf("mcp label = %q before SetListener", got)
	}
	w.SetListener("127.0.0.1:4242", nil)
	if got := w.status.mcp.Text; got != "MCP: 127.0.0.1:4242" {
		t.Errorf("mcp label = %q", got)
	}
	w.SetClients([]workbench.Client{{Session: "1", Name: "claude-code"}, {Session: "2", Name: "cursor"}}, 1)
	if got := w.status.agents.Text; got != "2 agents attached, 1 connecting: claude-code, cursor" {
		t.Errorf("agents label = %q", got)
	}
	w.Notify("hello")
	if got := w.status.message.Text; got != "hello" {
		t.Errorf("message = %q", got)
	}
}

// TestSetClientsShowsTheLastUpdateOnce: updates of the agents label that
// reach the main goroutine's queue before it runs show as one, the last (a
// client attaching sends two, queued while a starting window draws its
// first frame, ahead of the client's first call); an update after that one
// ran shows too.
func TestSetClientsShowsTheLastUpdateOnce(t *testing.T) {
	w := newTestWindow(t)
	var queued []func() // the main goroutine's queue, run below by the test
	w.main.setQueue(func(fn func()) { queued = append(queued, fn) })
	t.Cleanup(func() { w.main.setQueue(nil) })
	one := []workbench.Client{{Session: "1", Name: "claude-code"}}
	w.SetClients(nil, 1)
	w.SetClients(one, 0)
	if len(queued) != 1 {
		t.Fatalf("two updates queued %d functions for the main goroutine, want 1", len(queued))
	}
	queued[0]()
	if got, want := w.status.agents.Text, agentsText(one, 0); got != want {
		t.Errorf("agents label = %q, want the last update's %q", got, want)
	}
	w.SetClients(nil, 0)
	if len(queued) != 2 {
		t.Fatalf("an update after the queued one ran queued nothing (%d functions)", len(queued))
	}
	queued[1]()
	if got, want := w.status.agents.Text, agentsText(nil, 0); got != want {
		t.Errorf("agents label = %q, want %q", got, want)
	}
}

// TestNewTakesEveryOption: New applies its Options in one go, as
// cmd/trestle makes the window, and fills in the defaults for zero ones.
func TestNewTakesEveryOption(t *testing.T) {
	a := test.NewTempApp(t)
	s := store.DefaultSettings()
	s.TabWidth = 8
	s.HideIgnored = true
	w := New(a, newProject(t, map[string]string{"main.go": mainGo}), Options{
		Settings: s, Policy: permission.PolicyDeny, GoplsInstall: "/opt/gopls-bin", Actions: Actions{Version: "v9"},
	})
	t.Cleanup(func() { w.loading.Wait(); w.Window().Close(); w.status.stop() })
	w.loading.Wait()
	if w.settings.policy != permission.PolicyDeny || w.settings.TabWidth != 8 || !w.files.hideIgnored || w.gopls.installDir != "/opt/gopls-bin" {
		t.Errorf("options not applied: policy %q, settings %+v, hide %v, gopls %q", w.settings.policy, w.settings.Settings, w.files.hideIgnored, w.gopls.installDir)
	}
	if w.Window().MainMenu() == nil || w.actions.Version != "v9" {
		t.Error("New did not install the actions (no main menu)")
	}
	if err := w.Open(context.Background(), resolved(t, w, "main.go"), 0); err != nil {
		t.Fatal(err)
	}
	if e := w.tabs.find("main.go").view; e.TabWidth() != 8 {
		t.Errorf("an editor opened after New shows tabs at %d cells, want 8", e.TabWidth())
	}

	d := New(a, newProject(t, map[string]string{"main.go": mainGo}), Options{})
	t.Cleanup(func() { d.loading.Wait(); d.Window().Close(); d.status.stop() })
	d.loading.Wait()
	if d.settings.policy != permission.PolicyAsk || d.settings.Settings != store.DefaultSettings() {
		t.Errorf("zero options: policy %q, settings %+v; want ask and the defaults", d.settings.policy, d.settings.Settings)
	}
}

// TestQuittingDropsLateCallbacks: once the window is quitting, what its
// goroutines send to the main goroutine is dropped: after Fyne's loop has
// stopped, fyne.Do would run it on their own goroutine.
func TestQuittingDropsLateCallbacks(t *testing.T) {
	w := newTestWindow(t)
	ran := 0
	w.onMain(func() { ran++ })
	w.Quitting()
	w.onMain(func() { ran++ })
	w.Notify("after the quit")
	if ran != 1 || w.status.message.Text == "after the quit" {
		t.Fatalf("after Quitting: %d callbacks ran (want 1, the one before), status %q", ran, w.status.message.Text)
	}
}
