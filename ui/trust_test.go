package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/projconf"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/trust"
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

	w.showSettings()
	var check *widget.Check
	walkOverlay(c, func(o fyne.CanvasObject) {
		if ch, ok := o.(*widget.Check); ok && ch.Text == "Trust this project" {
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

func reopen(t *testing.T, path string) *store.Store {
	t.Helper()
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return db
}
