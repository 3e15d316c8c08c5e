package ui

import (
	"context"
	"io"
	"log"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"trestle/app/lsp"
	"trestle/app/services"
	"trestle/app/textbuf"
	"trestle/internal/testfix"
	"trestle/ui/editor"
)

// These drive the editor against the real gopls; without it they skip,
// except under CI, where scripts/deps.sh installs it.

const goplsMain = "package main\n\nfunc main() {\n\tx := 1\n\t_ = x\n}\n"
const goplsLib = "package main\n\n// Double returns twice n.\nfunc Double(n int) int { return 2 * n }\n"

// goplsWindow is a window on a small module with a real gopls whose
// callbacks are queued for the test goroutine to run (Fyne's test driver
// would run fyne.Do on gopls's goroutines).
func goplsWindow(t *testing.T) (*Window, chan func()) {
	t.Helper()
	return goplsWindowOn(t, map[string]string{"main.go": goplsMain, "lib.go": goplsLib})
}

// goplsWindowOn is goplsWindow on a module of files (go.mod added).
func goplsWindowOn(t *testing.T, files map[string]string) (*Window, chan func()) {
	t.Helper()
	_, err := lsp.Find(context.Background(), "")
	testfix.Need(t, "gopls", err)
	a := test.NewTempApp(t)
	files["go.mod"] = "module example.com/demo\n\ngo 1.22\n"
	p := newProject(t, files)
	w := newWindow(a, p)
	w.files.async = func(fn func()) { fn() }
	q := make(chan func(), 4096)
	w.gopls.mainDo = func(fn func()) { q <- fn }
	client := lsp.New(lsp.Config{Root: p.Root, Logger: log.New(io.Discard, "", 0)})
	w.Window().Resize(fyne.NewSize(1000, 700))
	w.connectServices(services.Services{LSP: client})
	w.loading.Wait() // connectServices reads the configuration on a goroutine
	t.Cleanup(func() {
		client.Close()
		w.loading.Wait()
		w.Window().Close()
		w.status.stop()
	})
	return w, q
}

// drainUntil runs the queued callbacks until cond holds.
// A queued callback may start a save, whose goroutine Fyne's test driver
// lets touch widgets: it is waited for before anything else runs.
func drainUntil(t *testing.T, w *Window, q chan func(), what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		select {
		case fn := <-q:
			fn()
			w.tabs.saving.Wait()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// askGopls presses keys and drains the window's queue until done. On a
// loaded machine gopls can miss goplsTimeout; the status bar then says the
// deadline passed, and the keys are pressed again, as the person would.
func askGopls(t *testing.T, w *Window, q chan func(), what string, press func(), done func() bool) {
	t.Helper()
	seen := len(w.status.recent)
	press()
	drainUntil(t, w, q, what, func() bool {
		if done() {
			return true
		}
		recent := w.status.recent
		if len(recent) < seen { // the oldest were dropped
			seen = 0
		}
		for _, m := range recent[seen:] {
			if strings.Contains(m, context.DeadlineExceeded.Error()) {
				t.Logf("gopls missed its deadline (%s); asking again", m)
				press()
				break
			}
		}
		seen = len(recent)
		return false
	})
}

func openGoEditor(t *testing.T, w *Window, rel string) *editor.Editor {
	t.Helper()
	if err := w.Open(context.Background(), resolved(t, w, rel), 0); err != nil {
		t.Fatal(err)
	}
	e := w.tabs.find(rel).view
	if !e.HasIntel() {
		t.Fatalf("the editor of %s is not linked to gopls", rel)
	}
	return e
}

// typeAt puts the caret at line, col (1-based) and types s.
func typeAt(e *editor.Editor, line, col int, s string) {
	e.SetCaret(textbuf.Pos{Line: line - 1, Col: col - 1})
	for _, r := range s {
		e.Page().TypedRune(r)
	}
}

// TestEditorShowsGoplsDiagnosticsWhileTyping: an unsaved type error
// reaches the editor (which draws it: ui/editor's TestIntelDrawsDiagnostics)
// and a Problems line labelled gopls; undoing it clears them.
func TestEditorShowsGoplsDiagnosticsWhileTyping(t *testing.T) {
	w, q := goplsWindow(t)
	e := openGoEditor(t, w, "main.go")
	typeAt(e, 4, 8, " + undefinedVar") // x := 1 + undefinedVar
	drainUntil(t, w, q, "the diagnostic in the editor", func() bool {
		ds := e.Diagnostics()
		return len(ds) > 0 && strings.Contains(ds[0].Message, "undefinedVar")
	})
	if d := e.Diagnostics()[0]; d.Range.Start != (lsp.Position{Line: 4, Col: 11}) || d.Severity != "error" {
		t.Fatalf("diagnostic %+v, want an error at 4:11", d)
	}
	found := false
	for _, p := range w.panes.problems.items {
		found = found || p.Source == "gopls" && p.Path == "main.go" && p.Line == 4 && strings.HasPrefix(p.String(), "[gopls] main.go:4:11")
	}
	if !found {
		t.Errorf("the Problems pane lacks the gopls line: %v", w.panes.problems.items)
	}
	if b, _ := os.ReadFile(w.project.Root + "/main.go"); string(b) != goplsMain {
		t.Fatal("the unsaved edit reached the disk")
	}
	e.Undo()
	drainUntil(t, w, q, "the diagnostic to clear", func() bool { return len(e.Diagnostics()) == 0 && len(w.panes.problems.items) == 0 })
}

// TestGoplsDefinitionReferencesOutline: F12 on a use opens its
// declaration in another file, Shift+F12 lists its uses, Ctrl+Shift+O the
// file's declarations (hover and completion: ui/editor's tests).
func TestGoplsDefinitionReferencesOutline(t *testing.T) {
	w, q := goplsWindow(t)
	e := openGoEditor(t, w, "main.go")
	typeAt(e, 5, 6, "Double(") // _ = Double(x)
	typeAt(e, 5, 14, ")")

	// F12 on Double opens lib.go at its declaration.
	settle(t, w) // gopls has loaded the module and seen the edit
	e.SetCaret(textbuf.Pos{Line: 4, Col: 7})
	askGopls(t, w, q, "lib.go to open", func() { e.Page().TypedKey(&fyne.KeyEvent{Name: fyne.KeyF12}) },
		func() bool { return w.tabs.active() == "lib.go" })
	lib := w.tabs.find("lib.go").view
	if lib.Caret() != (textbuf.Pos{Line: 3, Col: 5}) {
		t.Errorf("definition caret %+v, want line 4 col 6", lib.Caret())
	}

	// Shift+F12 on the declaration lists its use.
	askGopls(t, w, q, "the references", func() {
		lib.Page().KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
		lib.Page().TypedKey(&fyne.KeyEvent{Name: fyne.KeyF12})
		lib.Page().KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	}, func() bool { return w.gopls.refs != nil && len(w.gopls.refs.places) == 2 })
	if l := w.gopls.refs.places; l[0].path != "lib.go" || l[1].path != "main.go" || l[1].line != 5 {
		t.Errorf("references %+v", l)
	}
	// Each with its line of code: lib.go's from disk, main.go's unsaved one from its editor.
	if l := w.gopls.refs.places; !strings.HasSuffix(l[0].label, "func Double(n int) int { return 2 * n }") || !strings.HasSuffix(l[1].label, "_ = Double(x)") {
		t.Errorf("reference lines %q, %q", l[0].label, l[1].label)
	}

	// Ctrl+Shift+O lists lib.go's declarations.
	askGopls(t, w, q, "the outline", func() {
		lib.Page().TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift})
	}, func() bool { return w.gopls.outline != nil && len(w.gopls.outline.places) == 1 })
	if p := w.gopls.outline.places[0]; p.line != 4 || !strings.Contains(p.label, "function Double") {
		t.Errorf("outline %+v", w.gopls.outline.places)
	}
}

// TestFormatOnSave: Ctrl+S formats with gopls, then writes.
func TestFormatOnSave(t *testing.T) {
	w, q := goplsWindow(t)
	e := openGoEditor(t, w, "main.go")
	settle(t, w)
	typeAt(e, 4, 4, "   ") // x    := 1
	e.Page().TypedShortcut(&desktopCtrlS)
	drainUntil(t, w, q, "the formatted save", func() bool {
		b, _ := os.ReadFile(w.project.Root + "/main.go")
		if strings.HasPrefix(w.status.message.Text, "saved without") {
			t.Fatalf("status: %s", w.status.message.Text)
		}
		return string(b) == goplsMain && !e.Buffer().Modified()
	})
	if e.Buffer().Text() != goplsMain || e.Buffer().Modified() {
		t.Fatalf("editor after format on save: modified %v\n%s", e.Buffer().Modified(), e.Buffer().Text())
	}
}

// TestFormatOnSaveOff: with the setting off, Ctrl+S writes the text as typed.
func TestFormatOnSaveOff(t *testing.T) {
	w, q := goplsWindow(t)
	w.settings.FormatOnSave = false
	e := openGoEditor(t, w, "main.go")
	typeAt(e, 4, 4, "   ")
	e.Page().TypedShortcut(&desktopCtrlS)
	want := strings.Replace(goplsMain, "x := 1", "x    := 1", 1)
	drainUntil(t, w, q, "the save", func() bool {
		w.tabs.saving.Wait()
		b, _ := os.ReadFile(w.project.Root + "/main.go")
		return string(b) == want && !e.Buffer().Modified()
	})
}

// TestClosedTabLeavesGopls: closing a tab with an edit still waiting to be
// sent closes the document in gopls, and the pending send does not open
// it again with the discarded text.
func TestClosedTabLeavesGopls(t *testing.T) {
	w, q := goplsWindow(t)
	e := openGoEditor(t, w, "main.go")
	typeAt(e, 4, 8, " + undefinedVar")
	drainUntil(t, w, q, "the diagnostic", func() bool { return len(e.Diagnostics()) > 0 })
	typeAt(e, 4, 8, "0") // a send is now pending
	w.tabs.remove(w.tabs.find("main.go").item)
	if e.HasIntel() {
		t.Fatal("the closed editor is still linked to gopls")
	}
	deadline := time.Now().Add(2 * time.Second) // past the send's delay
	drainUntil(t, w, q, "the pending send's time", func() bool { return time.Now().After(deadline) })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h, err := w.gopls.client.Hover(ctx, "main.go", lsp.Position{Line: 4, Col: 2})
	if err != nil || !strings.Contains(h.Text, "var x int") {
		t.Fatalf("hover on x after closing: %+v, %v", h, err)
	}
	drainUntil(t, w, q, "the file's diagnostics to clear", func() bool { return len(w.gopls.client.Diagnostics("main.go")) == 0 })
}

// TestEditorSurvivesGoplsKill: gopls killed under an open editor is
// restarted, gets the editor's unsaved text again, and diagnostics resume;
// the status bar shows the restart.
func TestEditorSurvivesGoplsKill(t *testing.T) {
	w, q := goplsWindow(t)
	e := openGoEditor(t, w, "main.go")
	typeAt(e, 4, 8, " + undefinedVar")
	drainUntil(t, w, q, "the diagnostic", func() bool { return len(e.Diagnostics()) > 0 })
	pid := w.gopls.client.PID()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	sawRestart := false
	drainUntil(t, w, q, "a new gopls", func() bool {
		sawRestart = sawRestart || w.status.gopls.Text == "gopls: restarting"
		p := w.gopls.client.PID()
		return p != 0 && p != pid
	})
	typeAt(e, 4, 8, "0") // x := 10 + undefinedVar: the new gopls must know the unsaved text
	drainUntil(t, w, q, "diagnostics from the new gopls", func() bool {
		return len(e.Diagnostics()) > 0 && e.Diagnostics()[0].Range.Start == lsp.Position{Line: 4, Col: 12}
	})
	drainUntil(t, w, q, "the status bar", func() bool { return w.status.gopls.Text == "gopls: ready" })
	if !sawRestart {
		t.Error("the status bar never said restarting")
	}
}
