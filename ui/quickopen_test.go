package ui

import (
	"slices"
	"testing"
	"trestle/ui/editor"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"trestle/app/project"
	"trestle/app/quickopen"
	"trestle/internal/testfix"
)

// openFinder shows Go to File and waits for its listing.
func openGoToFile(t *testing.T, w *Window) *finder {
	t.Helper()
	w.quickOpen.showGoToFile()
	w.loading.Wait()
	f := w.quickOpen.open
	if f == nil || !f.popup.Visible() {
		t.Fatal("Go to File did not show")
	}
	return f
}

func press(f *finder, key fyne.KeyName) { f.entry.TypedKey(&fyne.KeyEvent{Name: key}) }

func TestGoToFileOpensTheTopMatch(t *testing.T) {
	w := newTestWindow(t)
	git(t, w.project.Root, "init", "-q") // a real repository, whose .git/config is never offered
	w.installActions(Actions{})
	w.Window().Resize(fyne.NewSize(900, 600))
	f := openGoToFile(t, w)
	if got := w.win.Canvas().Focused(); got != f.entry {
		t.Fatalf("focus = %T, want the query line", got)
	}
	test.Type(f.entry, "liblib")
	if len(f.results) == 0 || f.results[0].Name != "lib/lib.go" {
		t.Fatalf("results for liblib = %v, want lib/lib.go first", f.results)
	}
	for _, r := range f.results {
		if r.Name == ".git/config" {
			t.Errorf(".git/config is offered: %v", f.results)
		}
	}
	press(f, fyne.KeyReturn)
	w.loading.Wait()
	if f.popup.Visible() {
		t.Error("the finder is still shown after Enter")
	}
	if got := w.tabs.active(); got != "lib/lib.go" {
		t.Errorf("active tab = %q, want lib/lib.go", got)
	}
}

func TestGoToFileLineSuffixAndKeys(t *testing.T) {
	w := newTestWindow(t)
	w.installActions(Actions{})
	w.Window().Resize(fyne.NewSize(900, 600))

	f := openGoToFile(t, w)
	test.Type(f.entry, "main.go:6")
	press(f, fyne.KeyReturn)
	w.loading.Wait()
	e := w.tabs.activeEditor()
	if e == nil || w.tabs.active() != "main.go" || e.Caret().Line != 5 {
		t.Fatalf("main.go:6 opened %q at line %v, want main.go at line 6", w.tabs.active(), caretLine(e))
	}

	f = openGoToFile(t, w)
	test.Type(f.entry, ":2")
	press(f, fyne.KeyReturn)
	w.loading.Wait()
	if e := w.tabs.activeEditor(); e.Caret().Line != 1 {
		t.Errorf(":2 put the caret on line %d, want 2", e.Caret().Line+1)
	}

	f = openGoToFile(t, w)
	if len(f.results) < 2 {
		t.Fatalf("an empty query lists %d files, want every file", len(f.results))
	}
	press(f, fyne.KeyDown)
	press(f, fyne.KeyDown)
	press(f, fyne.KeyUp)
	if f.cursor != 1 {
		t.Errorf("cursor after Down, Down, Up = %d, want 1", f.cursor)
	}
	press(f, fyne.KeyEscape)
	if f.popup.Visible() {
		t.Error("Escape did not close Go to File")
	}
}

func TestPaletteListsMenuActionsWithShortcuts(t *testing.T) {
	w := newTestWindow(t)
	w.installActions(Actions{})
	w.Window().Resize(fyne.NewSize(900, 600))
	w.quickOpen.showPalette()
	f := w.quickOpen.open
	test.Type(f.entry, "save all")
	if len(f.results) == 0 || f.results[0].Name != "File › Save All" {
		t.Fatalf("palette results for \"save all\" = %v, want File › Save All first", f.results)
	}
	if got := f.detail(f.results[0]); got != "Ctrl+Shift+S" {
		t.Errorf("Save All shows shortcut %q, want Ctrl+Shift+S", got)
	}
	for _, r := range f.rank("") {
		if r.Name == "View › "+paletteLabel {
			t.Error("the palette lists itself")
		}
	}
	f.entry.SetText("problems pane")
	press(f, fyne.KeyReturn)
	if got := w.panes.tabs.SelectedIndex(); got != 2 {
		t.Errorf("after View › Problems Pane the pane tab is %d, want 2 (Problems)", got)
	}
}

func caretLine(e *editor.Editor) int {
	if e == nil {
		return 0
	}
	return e.Caret().Line + 1
}

// TestOpenRecentListsAFolderOpenedFromThisWindow: after Open Folder opens
// another project, Open Recent lists it at once.
func TestOpenRecentListsAFolderOpenedFromThisWindow(t *testing.T) {
	w := newTestWindow(t)
	var opened []string
	w.installActions(Actions{OpenWindow: func(dir string) error { opened = append(opened, dir); return nil }})
	other := t.TempDir()
	w.menu.openWindow(other)
	var recent []string
	for _, it := range w.win.MainMenu().Items[0].Items {
		if it.Label == "Open Recent" && it.ChildMenu != nil {
			for _, c := range it.ChildMenu.Items {
				recent = append(recent, c.Label)
			}
		}
	}
	if len(opened) != 1 || len(recent) == 0 || recent[0] != other {
		t.Fatalf("opened %v; Open Recent lists %v, want %s first", opened, recent, other)
	}
}

// TestFinderSaysNoMatch: Go to File and the command palette, opened with
// their keys, say so when nothing matches what was typed, and stop saying
// it once something does; a bare ":12" (a line of the active file) is no
// miss.
func TestFinderSaysNoMatch(t *testing.T) {
	w := newTestWindow(t)
	w.installActions(Actions{})
	w.Window().Resize(fyne.NewSize(900, 600))
	for _, tc := range []struct {
		name  string
		key   fyne.Shortcut
		miss  string
		want  string
		match string
	}{
		{"Go to File", ctrl(fyne.KeyP, false), "zzqqxx", `No file matches "zzqqxx".`, "lib"},
		{"the palette", ctrl(fyne.KeyP, true), "zzqqxx", `No command matches "zzqqxx".`, "save"},
	} {
		pressShortcut(w.win, tc.key)
		w.loading.Wait()
		f := w.quickOpen.open
		if f == nil || !f.popup.Visible() {
			t.Fatalf("%s did not open", tc.name)
		}
		if f.none.Visible() {
			t.Errorf("%s says %q before anything is typed", tc.name, f.none.Text)
		}
		typeText(t, w.win, tc.miss)
		if !f.none.Visible() || f.none.Text != tc.want {
			t.Errorf("%s with %q: no-match text %q shown %v, want %q", tc.name, tc.miss, f.none.Text, f.none.Visible(), tc.want)
		}
		f.entry.SetText(tc.match)
		if f.none.Visible() || len(f.results) == 0 {
			t.Errorf("%s with %q: %d results, no-match shown %v", tc.name, tc.match, len(f.results), f.none.Visible())
		}
		if tc.name == "Go to File" {
			f.entry.SetText(":12")
			if f.none.Visible() {
				t.Errorf(`Go to File says %q for ":12"`, f.none.Text)
			}
		}
		pressKey(w.win, fyne.KeyEscape)
	}
}

// TestGoToFileEnterBeforeTheListing: the bug: the first Ctrl+P of a
// session lists the project's files off the main goroutine, and on a
// loaded machine "tx.go" and Enter typed before the listing came closed
// the finder and opened nothing (TestKeysOnBbolt). Now Enter waits for
// the listing and then opens the top match.
func TestGoToFileEnterBeforeTheListing(t *testing.T) {
	w := newTestWindow(t)
	w.installActions(Actions{})
	w.Window().Resize(fyne.NewSize(900, 600))
	q := make(chan func(), 100) // the main goroutine is this test, draining q
	w.main.setQueue(func(fn func()) { q <- fn })
	t.Cleanup(func() { w.main.setQueue(nil) })
	w.quickOpen.showGoToFile()
	f := w.quickOpen.open
	test.Type(f.entry, "liblib")
	press(f, fyne.KeyReturn) // the listing has not reached the main goroutine
	if !f.popup.Visible() {
		t.Fatal("Enter before the listing closed the finder")
	}
	drainUntil(t, w, q, "lib/lib.go to open", func() bool {
		w.loading.Wait()
		return w.tabs.active() == "lib/lib.go"
	})
	if f.popup.Visible() {
		t.Error("the finder is still shown after it opened lib/lib.go")
	}
}

// TestGoToFileTypingAndDeletingOnBbolt types into Go to File over a copy of
// bbolt one key at a time, deletes and types again: the finder ranks each
// keystroke through one Ranker, which rescores only the last matches when
// the query grows, and every answer must be the one Rank gives afresh.
func TestGoToFileTypingAndDeletingOnBbolt(t *testing.T) {
	p, err := project.Open(testfix.CopyBbolt(t))
	if err != nil {
		t.Fatal(err)
	}
	w := newTestWindowOn(t, p)
	w.installActions(Actions{})
	w.Window().Resize(fyne.NewSize(900, 600))
	f := openGoToFile(t, w)
	if len(w.quickOpen.files) < 20 {
		t.Fatalf("Go to File listed %d files of bbolt: %v", len(w.quickOpen.files), w.quickOpen.files)
	}
	check := func(step string) {
		t.Helper()
		want := quickopen.Rank(f.entry.Text, w.quickOpen.files, finderLimit)
		if !slices.Equal(resultNames(f.results), resultNames(want)) {
			t.Fatalf("%s, query %q: the finder shows %v; Rank gives %v", step, f.entry.Text, resultNames(f.results), resultNames(want))
		}
	}
	for _, key := range "txgo" {
		test.Type(f.entry, string(key))
		check("typed " + string(key))
	}
	if len(f.results) == 0 || f.results[0].Name != "tx.go" {
		t.Fatalf("results for txgo = %v, want tx.go first", resultNames(f.results))
	}
	for range 4 {
		press(f, fyne.KeyBackspace)
		check("backspace")
	}
	for _, key := range "cursor" {
		test.Type(f.entry, string(key))
		check("typed " + string(key))
	}
	if len(f.results) == 0 || f.results[0].Name != "cursor.go" {
		t.Fatalf("results for cursor = %v, want cursor.go first", resultNames(f.results))
	}
}

func resultNames(rs []quickopen.Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Name
	}
	return out
}
