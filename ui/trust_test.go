package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/task"
	"trestle/app/trust"
	"trestle/internal/testfix"
)

// trustDialogText is every label's text in the top overlay (a dialog).
func trustDialogText(c fyne.Canvas) string {
	var b strings.Builder
	walkOverlay(c, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	})
	return b.String()
}

// TestStatusBarTrustsTheProject: an untrusted project's window shows
// "Untrusted" in the status bar; tapping it shows what is off and what
// .trestle.json asked for, and Trust trusts the project: remembered in
// the store, the button gone, the file's task offered. Settings revokes
// it again, remembered too.
func TestStatusBarTrustsTheProject(t *testing.T) {
	w := newTestWindow(t)
	root := w.project.Root
	os.WriteFile(filepath.Join(root, projconf.FileName), []byte(`{"tasks": {"pwn": {"command": ["sh", "-c", "touch pwned"]}}}`), 0o644)
	dbPath := filepath.Join(t.TempDir(), "state.db")
	tr := connectTrust(t, w, dbPath)
	if !w.status.trust.Visible() || w.status.trust.Text != untrustedText {
		t.Fatal("the status bar does not say the project is untrusted")
	}
	if conf, _ := w.services.ProjectConfig(); slices.Contains(conf.TaskNames(), "pwn") {
		t.Fatal("the untrusted project's task is offered")
	}

	c := w.Window().Canvas()
	test.Tap(w.status.trust)
	text := trustDialogText(c)
	for _, want := range []string{"untrusted", "git runs without the repository's own settings", "Withheld from .trestle.json: tasks pwn"} {
		if !strings.Contains(text, want) {
			t.Fatalf("the trust dialog does not say %q:\n%s", want, text)
		}
	}
	trustButton := findButton(c, "Trust")
	if trustButton == nil {
		t.Fatalf("the trust dialog offers no Trust button:\n%s", text)
	}
	test.Tap(trustButton)
	w.loading.Wait()
	if !tr.Trusted() || w.status.trust.Visible() {
		t.Fatalf("after Trust: trusted %v, button shown %v", tr.Trusted(), w.status.trust.Visible())
	}
	if later, _ := trust.Load(root, reopen(t, dbPath), false); !later.Trusted() {
		t.Fatal("the trust was not remembered in the store")
	}
	if conf, _ := w.services.ProjectConfig(); !slices.Contains(conf.TaskNames(), "pwn") {
		t.Fatal("trusted, the project's task is not offered")
	}

	w.settings.show()
	var check *escCheck
	walkOverlay(c, func(o fyne.CanvasObject) {
		if ch, ok := o.(*escCheck); ok && ch.Text == "Trust this project" {
			check = ch
		}
	})
	if check == nil || !check.Checked {
		t.Fatal("Settings has no checked \"Trust this project\"")
	}
	test.Tap(check)
	test.Tap(findButton(c, "Save"))
	w.loading.Wait()
	if tr.Trusted() || !w.status.trust.Visible() {
		t.Fatalf("after revoking in Settings: trusted %v, button shown %v", tr.Trusted(), w.status.trust.Visible())
	}
	if later, _ := trust.Load(root, reopen(t, dbPath), false); later.Trusted() {
		t.Fatal("the revoke was not remembered in the store")
	}
}

// TestEnterNeverTrustsTheProject: the trust question's safe answer is the
// default one. Enter, wherever the keyboard is in the dialog (nothing
// focused, or Tab on Not now or on Trust), trusts nothing and leaves the
// question open; Escape answers Not now. Only a click on Trust (or Space
// on it, a deliberate press) trusts.
func TestEnterNeverTrustsTheProject(t *testing.T) {
	w := newTestWindow(t)
	tr := connectTrust(t, w, filepath.Join(t.TempDir(), "state.db"))
	c := w.Window().Canvas()
	test.Tap(w.status.trust)
	if findButton(c, "Trust") == nil {
		t.Fatal("tapping Untrusted shows no trust dialog")
	}
	for _, tabs := range []int{0, 1, 2} { // nothing focused, Not now, Trust
		c.Unfocus()
		for range tabs {
			c.FocusNext()
		}
		if b, ok := buttonOf(c.Focused()); tabs > 0 && (!ok || b.Text != []string{"Not now", "Trust"}[tabs-1]) {
			t.Fatalf("%d Tab(s) in the trust dialog focused %T, want its buttons in turn", tabs, c.Focused())
		}
		for _, k := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEnter} {
			pressKey(w.Window(), k)
			w.loading.Wait()
			if tr.Trusted() {
				t.Fatalf("%s after %d Tab(s) (keyboard on %T) trusted the project", k, tabs, c.Focused())
			}
			if c.Overlays().Top() == nil {
				t.Fatalf("%s after %d Tab(s) closed the trust question without an answer", k, tabs)
			}
		}
	}
	c.Unfocus()
	pressKey(w.Window(), fyne.KeyEscape)
	w.loading.Wait()
	if c.Overlays().Top() != nil || tr.Trusted() || !w.status.trust.Visible() {
		t.Fatalf("Escape: dialog still shown %v, trusted %v, Untrusted button shown %v", c.Overlays().Top() != nil, tr.Trusted(), w.status.trust.Visible())
	}
}

func reopen(t *testing.T, path string) *store.Store {
	t.Helper()
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestOpeningAnUntrustedRepositoryRunsNoGitFilter is issue 20's first
// break through the window, as it opens a cloned project: the git status
// of the Changes pane, a tab's HEAD text for the gutter, and the Changes
// pane's diff of a changed file, on a real repository whose committed
// .gitattributes routes *.go through a filter and a diff driver that its
// .git/config (and a file it includes) define as commands. None runs.
func TestOpeningAnUntrustedRepositoryRunsNoGitFilter(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"main.go": mainGo, "go.mod": "module example.com/demo\n"})
	marks := testfix.NewMarks(t)
	testfix.HostileGit(t, w.project.Root, marks)
	os.WriteFile(filepath.Join(w.project.Root, "main.go"), []byte(mainGo+"// changed\n"), 0o644)

	w.connectServices(services.Services{Gate: permission.NewGate(permission.PolicyDeny, nil)})
	w.loading.Wait() // the test driver runs the config's way back to the main goroutine on its own
	w.git.refresh()
	w.OpenOnMain("main.go")
	w.loading.Wait()
	entries := w.panes.git.entries
	if len(entries) != 1 || entries[0].path != "main.go" {
		t.Fatalf("the Changes pane lists %+v, want main.go changed", entries)
	}
	w.git.showDiff(entries[0])
	if ran := marks.Left(); len(ran) > 0 {
		t.Fatalf("opening the untrusted repository ran its git commands: %v", ran)
	}
}

// TestTestAllAsksForTrust is issue 20's default Test task in the window:
// Run > Test All in an untrusted project ran go test, and so the project's
// tests, TestMain and init functions, without a word. It now asks the
// person to trust the project first, saying why: Not now runs nothing;
// Trust and Run trusts the project and runs the tests. Build still runs
// untrusted.
func TestTestAllAsksForTrust(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build and go test")
	}
	marks := testfix.NewMarks(t)
	w := newTestWindowWith(t, map[string]string{
		"go.mod":          "module example.com/demo\n\ngo 1.22\n",
		"main.go":         mainGo,
		"pkg/pkg.go":      "package pkg\n",
		"pkg/pkg_test.go": marks.TestCode("pkg"),
	})
	w.installActions(Actions{})
	root := w.project.Root
	tr, err := trust.Load(root, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	runner := task.NewRunner(root)
	w.connectServices(services.Services{Tasks: runner, Trust: tr,
		Config: tr.Config(func() (projconf.Config, error) { return projconf.Load(root) })})
	w.loading.Wait()
	w.run.lines.after = func(time.Duration, func()) {} // RunEnded flushes, on the test goroutine
	var runMenu *fyne.Menu
	for _, m := range w.win.MainMenu().Items {
		if m.Label == "Run" {
			runMenu = m
		}
	}
	if runMenu == nil {
		t.Fatal("no Run menu")
	}
	testAll := menuItemNamed(t, runMenu, "Test All")
	ended := func(what string) *task.Run {
		t.Helper()
		w.loading.Wait()
		run := runner.Last()
		if run == nil {
			t.Fatalf("%s did not run", what)
		}
		testfix.Wait(t, 3*time.Minute, what+" ends", func() bool { return run.State() != task.StateRunning })
		w.loading.Wait()
		return run
	}

	c := w.win.Canvas()
	testAll.Action()
	text := trustDialogText(c)
	for _, want := range []string{"go test ./...", "runs the project's own code", "untrusted"} {
		if !strings.Contains(text, want) {
			t.Fatalf("Test All in an untrusted project: the dialog does not say %q:\n%s", want, text)
		}
	}
	test.Tap(findButton(c, "Not now"))
	w.loading.Wait()
	if run := runner.Last(); run != nil || tr.Trusted() {
		t.Fatalf("after Not now: ran %v, trusted %v", run, tr.Trusted())
	}

	menuItemNamed(t, runMenu, "Build").Action()
	if run := ended("Build"); run.State() != task.StatePassed {
		t.Fatalf("Build in an untrusted project: %s", run.State())
	}
	if left := marks.Left(); len(left) > 0 {
		t.Fatalf("the untrusted project's code ran: %v", left)
	}

	testAll.Action()
	trustRun := findButton(c, "Trust and Run")
	if trustRun == nil {
		t.Fatalf("no Trust and Run:\n%s", trustDialogText(c))
	}
	test.Tap(trustRun)
	if run := ended("Test All"); !tr.Trusted() || run.Task.Name != "test" || run.State() != task.StatePassed {
		t.Fatalf("after Trust and Run: trusted %v, run %s %s", tr.Trusted(), run.Task.Name, run.State())
	}
	if left := marks.Left(); len(left) != 3 {
		t.Fatalf("trusted, Test All left marks %v; want init, test and testmain", left)
	}
}

// connectTrust gives w the project's trust, kept in a store at dbPath
// (untrusted until the test trusts it), and waits for w to load it.
func connectTrust(t *testing.T, w *Window, dbPath string) *trust.Project {
	t.Helper()
	root := w.project.Root
	db, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trust.Load(root, db, false)
	if err != nil {
		t.Fatal(err)
	}
	w.connectServices(services.Services{Trust: tr, Config: tr.Config(func() (projconf.Config, error) { return projconf.Load(root) })})
	w.loading.Wait()
	return tr
}
