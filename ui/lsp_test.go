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
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/lsp"
	"trestle/app/services"
	"trestle/app/textbuf"
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
	if _, err := lsp.Find(context.Background(), ""); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI needs gopls (scripts/deps.sh installs it): %v", err)
		}
		t.Skipf("gopls is not installed: %v", err)
	}
	a := test.NewTempApp(t)
	files["go.mod"] = "module example.com/demo\n\ngo 1.22\n"
	p := newProject(t, files)
	w := New(a, p)
	w.files.async = func(fn func()) { fn() }
	q := make(chan func(), 4096)
	w.goplsDo = func(fn func()) { q <- fn }
	client := lsp.New(lsp.Config{Root: p.Root, Logger: log.New(io.Discard, "", 0)})
	w.Window().Resize(fyne.NewSize(1000, 700))
	w.SetServices(services.Services{LSP: client})
	w.loading.Wait() // SetServices reads the configuration on a goroutine
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

func openGoEditor(t *testing.T, w *Window, rel string) *editor {
	t.Helper()
	if err := w.Open(context.Background(), rel, 0); err != nil {
		t.Fatal(err)
	}
	e := w.tabs.find(rel).view
	if e.intel == nil {
		t.Fatalf("the editor of %s is not linked to gopls", rel)
	}
	return e
}

// typeAt puts the caret at line, col (1-based) and types s.
func typeAt(e *editor, line, col int, s string) {
	e.setCaret(textbuf.Pos{Line: line - 1, Col: col - 1}, false)
	for _, r := range s {
		e.page.TypedRune(r)
	}
}

// TestEditorShowsGoplsDiagnosticsWhileTyping: an unsaved type error gets a
// squiggle, a gutter mark, a hover message and a Problems line labelled
// gopls; undoing it clears them.
func TestEditorShowsGoplsDiagnosticsWhileTyping(t *testing.T) {
	w, q := goplsWindow(t)
	e := openGoEditor(t, w, "main.go")
	typeAt(e, 4, 8, " + undefinedVar") // x := 1 + undefinedVar
	drainUntil(t, w, q, "the diagnostic in the editor", func() bool {
		return len(e.intel.diags) > 0 && strings.Contains(e.intel.diags[0].Message, "undefinedVar")
	})
	d := e.intel.diags[0]
	if d.Range.Start != (lsp.Position{Line: 4, Col: 11}) || d.Severity != "error" {
		t.Fatalf("diagnostic %+v, want an error at 4:11", d)
	}
	e.place()
	gutter := gutterWidth(e.buf.LineCount())
	row := e.grid.Rows[3-e.shown.first]
	if row.Cells[gutter-2].Rune != '●' {
		t.Errorf("no gutter mark on line 4: %q", rowText(row))
	}
	cell := row.Cells[gutter+textbuf.CellOf(e.buf.Line(3), 10, e.tabWidth)]
	if cell.Rune != 'u' || cell.Style == nil || !cell.Style.Style().Underline {
		t.Errorf("undefinedVar is not underlined: %+v", cell)
	}
	if msgs := e.intel.diagnosticsAt(textbuf.Pos{Line: 3, Col: 12}); len(msgs) != 1 || !strings.Contains(msgs[0], "undefined: undefinedVar") {
		t.Errorf("hover message %v", msgs)
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
	e.undo()
	drainUntil(t, w, q, "the diagnostic to clear", func() bool { return len(e.intel.diags) == 0 && len(w.panes.problems.items) == 0 })
}

// TestEditorHoverDefinitionCompletionReferences drives the rest: a hover
// over Double, F12 to its declaration in another file, Shift+F12 for its
// uses, and completing "Dou" with Ctrl+Space and Enter.
func TestEditorHoverDefinitionCompletionReferences(t *testing.T) {
	w, q := goplsWindow(t)
	e := openGoEditor(t, w, "main.go")
	typeAt(e, 5, 6, "Double(") // _ = Double(x)
	typeAt(e, 5, 14, ")")
	if got := e.buf.Line(4); got != "\t_ = Double(x)" {
		t.Fatalf("line 5 is %q", got)
	}

	// Hover: the pointer resting over "Double".
	cell := e.look.cell
	gutter := gutterWidth(e.buf.LineCount())
	e.intel.hoverAt = fyne.NewPos((float32(gutter+textbuf.CellOf(e.buf.Line(4), 6, e.tabWidth))+0.5)*cell.Width, 4.5*cell.Height)
	e.intel.hoverGen++
	e.intel.hover(e.intel.hoverGen)
	drainUntil(t, w, q, "the hover", func() bool { return e.intel.hoverPop != nil })
	text := hoverText(e.intel.hoverPop)
	if !strings.Contains(text, "func Double(n int) int") || !strings.Contains(text, "returns twice n") {
		t.Errorf("hover text %q", text)
	}

	// F12 on Double opens lib.go at its declaration.
	e.setCaret(textbuf.Pos{Line: 4, Col: 7}, false)
	key(e, fyne.KeyF12)
	drainUntil(t, w, q, "lib.go to open", func() bool { return w.tabs.active() == "lib.go" })
	lib := w.tabs.find("lib.go").view
	if lib.caret != (textbuf.Pos{Line: 3, Col: 5}) {
		t.Errorf("definition caret %+v, want line 4 col 6", lib.caret)
	}

	// Shift+F12 on the declaration lists its use.
	lib.shift = true
	key(lib, fyne.KeyF12)
	lib.shift = false
	drainUntil(t, w, q, "the references", func() bool { return w.gopls.refs != nil && len(w.gopls.refs.places) == 2 })
	if l := w.gopls.refs.places; l[0].path != "lib.go" || l[1].path != "main.go" || l[1].line != 5 {
		t.Errorf("references %+v", l)
	}

	// Ctrl+Shift+O lists lib.go's declarations; a click jumps to one.
	ctrl(lib, fyne.KeyO, true)
	drainUntil(t, w, q, "the outline", func() bool { return w.gopls.outline != nil && len(w.gopls.outline.places) == 1 })
	if p := w.gopls.outline.places[0]; p.line != 4 || !strings.Contains(p.label, "function Double") {
		t.Errorf("outline %+v", w.gopls.outline.places)
	}

	// Completion: "Dou" + Ctrl+Space, Enter.
	w.tabs.show(loaded{path: "main.go"}, 0)
	typeAt(e, 5, 15, "\n\t_ = Dou")
	ctrl(e, fyne.KeySpace, false)
	drainUntil(t, w, q, "the completion list", func() bool { return e.intel.comp != nil })
	if it := e.intel.comp.items[0]; it.Label != "Double" || it.Kind != "function" {
		t.Errorf("first completion %+v", it)
	}
	// Typing on refines the list; Fyne sends a letter's key before its rune.
	e.page.TypedKey(&fyne.KeyEvent{Name: fyne.KeyB})
	e.page.TypedRune('b')
	drainUntil(t, w, q, "the refined list", func() bool { return e.intel.comp != nil })
	key(e, fyne.KeyReturn)
	if got := e.buf.Line(5); got != "\t_ = Double" {
		t.Errorf("after Enter the line is %q", got)
	}
}

func hoverText(p fyne.CanvasObject) string {
	var find func(o fyne.CanvasObject) string
	find = func(o fyne.CanvasObject) string {
		switch o := o.(type) {
		case *widget.Label:
			return o.Text
		case *container.Scroll:
			return find(o.Content)
		case *fyne.Container:
			for _, c := range o.Objects {
				if s := find(c); s != "" {
					return s
				}
			}
		}
		return ""
	}
	return find(p)
}

// TestFormatOnSave: Ctrl+S formats with gopls, then writes.
func TestFormatOnSave(t *testing.T) {
	w, q := goplsWindow(t)
	e := openGoEditor(t, w, "main.go")
	typeAt(e, 4, 4, "   ") // x    := 1
	ctrl(e, fyne.KeyS, false)
	drainUntil(t, w, q, "the formatted save", func() bool {
		b, _ := os.ReadFile(w.project.Root + "/main.go")
		return string(b) == goplsMain && !e.buf.Modified()
	})
	if e.buf.Text() != goplsMain || e.buf.Modified() {
		t.Fatalf("editor after format on save: modified %v\n%s", e.buf.Modified(), e.buf.Text())
	}
}

// TestFormatOnSaveOff: with the setting off, Ctrl+S writes the text as typed.
func TestFormatOnSaveOff(t *testing.T) {
	w, q := goplsWindow(t)
	w.settings.FormatOnSave = false
	e := openGoEditor(t, w, "main.go")
	typeAt(e, 4, 4, "   ")
	ctrl(e, fyne.KeyS, false)
	want := strings.Replace(goplsMain, "x := 1", "x    := 1", 1)
	drainUntil(t, w, q, "the save", func() bool {
		w.tabs.saving.Wait()
		b, _ := os.ReadFile(w.project.Root + "/main.go")
		return string(b) == want && !e.buf.Modified()
	})
}

// TestCtrlClickGoesToDefinition: Ctrl+click on a use opens its declaration.
func TestCtrlClickGoesToDefinition(t *testing.T) {
	w, q := goplsWindow(t)
	e := openGoEditor(t, w, "main.go")
	typeAt(e, 5, 6, "Double(")
	typeAt(e, 5, 14, ")")
	cell, gutter := e.look.cell, gutterWidth(e.buf.LineCount())
	at := fyne.NewPos((float32(gutter+textbuf.CellOf(e.buf.Line(4), 7, e.tabWidth))+0.5)*cell.Width, 4.5*cell.Height)
	e.page.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: at}, Button: desktop.MouseButtonPrimary,
		Modifier: fyne.KeyModifierShortcutDefault})
	drainUntil(t, w, q, "lib.go to open", func() bool { return w.tabs.active() == "lib.go" })
	if c := w.tabs.find("lib.go").view.caret; c != (textbuf.Pos{Line: 3, Col: 5}) {
		t.Errorf("caret %+v, want on Double's declaration", c)
	}
}

// TestClosedTabLeavesGopls: closing a tab with an edit still waiting to be
// sent closes the document in gopls, and the pending send does not open
// it again with the discarded text.
func TestClosedTabLeavesGopls(t *testing.T) {
	w, q := goplsWindow(t)
	e := openGoEditor(t, w, "main.go")
	typeAt(e, 4, 8, " + undefinedVar")
	drainUntil(t, w, q, "the diagnostic", func() bool { return len(e.intel.diags) > 0 })
	typeAt(e, 4, 8, "0") // a send is now pending
	w.tabs.remove(w.tabs.find("main.go").item)
	if e.intel != nil {
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
	drainUntil(t, w, q, "the diagnostic", func() bool { return len(e.intel.diags) > 0 })
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
		return len(e.intel.diags) > 0 && e.intel.diags[0].Range.Start == lsp.Position{Line: 4, Col: 12}
	})
	drainUntil(t, w, q, "the status bar", func() bool { return w.status.gopls.Text == "gopls: ready" })
	if !sawRestart {
		t.Error("the status bar never said restarting")
	}
}

// TestSignatureHint: typing "Double(" shows the signature above the caret;
// ")" hides it.
func TestSignatureHint(t *testing.T) {
	w, q := goplsWindow(t)
	e := openGoEditor(t, w, "main.go")
	typeAt(e, 5, 6, "Double(")
	drainUntil(t, w, q, "the signature", func() bool { return e.intel.sigBox != nil })
	if text := hoverText(e.intel.sigBox); !strings.Contains(text, "Double(n int) int") || !strings.Contains(text, "→ n int") {
		t.Errorf("signature hint %q", text)
	}
	e.page.TypedRune(')')
	if e.intel.sigBox != nil {
		t.Error("the hint stayed after )")
	}
}
