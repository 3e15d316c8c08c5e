package editor

import (
	"context"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/lsp"
	"trestle/app/textbuf"
	"trestle/internal/testfix"
)

// These drive the editor's link to the real gopls, with a host that
// records where the editor asks to go and queues main-goroutine work for
// the test goroutine (Fyne's test driver would run fyne.Do on gopls's
// goroutines). Without gopls they skip, except under CI.

const goplsMain = "package main\n\nfunc main() {\n\tx := 1\n\t_ = x\n}\n"
const goplsLib = "package main\n\n// Double returns twice n.\nfunc Double(n int) int { return 2 * n }\n"

// testHost is an editor.Host for tests.
type testHost struct {
	q       chan func()
	running sync.WaitGroup
	mu      sync.Mutex
	asked   []string // "definition main.go", ...
}

func (h *testHost) record(s string)                          { h.mu.Lock(); h.asked = append(h.asked, s); h.mu.Unlock() }
func (h *testHost) Definition(path string, pos lsp.Position) { h.record("definition " + path) }
func (h *testHost) References(path string, pos lsp.Position) { h.record("references " + path) }
func (h *testHost) Outline(path string)                      { h.record("outline " + path) }
func (h *testHost) Rename(path string, pos lsp.Position, current string) {
	h.record("rename " + current)
}
func (h *testHost) Go(fn func()) { h.running.Go(fn) }
func (h *testHost) Do(fn func()) { h.q <- fn }

// goplsEditor opens main.go of a small module in an editor linked to a
// real gopls.
func goplsEditor(t *testing.T) (*Editor, *testHost, *lsp.Client) {
	t.Helper()
	_, err := lsp.Find(context.Background(), "")
	testfix.Need(t, "gopls", err)
	root := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module example.com/demo\n\ngo 1.22\n", "main.go": goplsMain, "lib.go": goplsLib} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := newTestEditor(t, goplsMain, true)
	client := lsp.New(lsp.Config{Root: root, Logger: log.New(io.Discard, "", 0)})
	h := &testHost{q: make(chan func(), 4096)}
	t.Cleanup(func() {
		e.StopIntel()
		client.Close()
		h.running.Wait()
	})
	client.Start()
	e.AttachIntel("main.go", client, h)
	return e, h, client
}

// drainUntil runs the queued main-goroutine work until cond holds.
func drainUntil(t *testing.T, h *testHost, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		select {
		case fn := <-h.q:
			fn()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// typeAt puts the caret at line, col (1-based) and types s.
func typeAt(e *Editor, line, col int, s string) {
	e.SetCaret(textbuf.Pos{Line: line - 1, Col: col - 1})
	for _, r := range s {
		e.page.TypedRune(r)
	}
}

// TestIntelDrawsDiagnostics: an unsaved type error, as gopls reports it,
// gets a squiggle, a gutter mark and a hover message.
func TestIntelDrawsDiagnostics(t *testing.T) {
	e, h, client := goplsEditor(t)
	typeAt(e, 4, 8, " + undefinedVar") // x := 1 + undefinedVar
	drainUntil(t, h, "the diagnostic", func() bool {
		ds := client.Diagnostics("main.go")
		if len(ds) > 0 && strings.Contains(ds[0].Message, "undefinedVar") {
			e.SetDiagnostics(ds)
			return true
		}
		return false
	})
	d := e.Diagnostics()[0]
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
}

// TestIntelHoverCompletionAndKeys: a hover over Double, completing "Dou"
// with Ctrl+Space and Enter, and F12, Shift+F12, Ctrl+Shift+O, F2 and
// Ctrl+click handed to the host.
func TestIntelHoverCompletionAndKeys(t *testing.T) {
	e, h, _ := goplsEditor(t)
	typeAt(e, 5, 6, "Double(") // _ = Double(x)
	typeAt(e, 5, 14, ")")
	if got := e.buf.Line(4); got != "\t_ = Double(x)" {
		t.Fatalf("line 5 is %q", got)
	}

	// Hover: the pointer resting over "Double".
	cell := e.look.cell
	gutter := gutterWidth(e.buf.LineCount())
	at := fyne.NewPos((float32(gutter+textbuf.CellOf(e.buf.Line(4), 6, e.tabWidth))+0.5)*cell.Width, 4.5*cell.Height)
	e.intel.hoverAt = at
	e.intel.hoverGen++
	e.intel.hover(e.intel.hoverGen)
	drainUntil(t, h, "the hover", func() bool { return e.intel.hoverPop != nil })
	if text := hoverText(e.intel.hoverPop); !strings.Contains(text, "func Double(n int) int") || !strings.Contains(text, "returns twice n") {
		t.Errorf("hover text %q", text)
	}

	// The navigation keys go to the host.
	e.SetCaret(textbuf.Pos{Line: 4, Col: 7})
	key(e, fyne.KeyF12)
	shiftKey(e, fyne.KeyF12)
	ctrl(e, fyne.KeyO, true)
	key(e, fyne.KeyF2)
	at = fyne.NewPos((float32(gutter+textbuf.CellOf(e.buf.Line(4), 7, e.tabWidth))+0.5)*cell.Width, 4.5*cell.Height)
	e.page.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: at}, Button: desktop.MouseButtonPrimary,
		Modifier: fyne.KeyModifierShortcutDefault}) // Ctrl+click
	want := "definition main.go,references main.go,outline main.go,rename Double,definition main.go"
	if got := strings.Join(h.asked, ","); got != want {
		t.Errorf("the host was asked %q, want %q", got, want)
	}

	// Completion: "Dou" + Ctrl+Space, Enter.
	typeAt(e, 5, 15, "\n\t_ = Dou")
	ctrl(e, fyne.KeySpace, false)
	drainUntil(t, h, "the completion list", func() bool { return e.intel.comp != nil })
	if it := e.intel.comp.items[0]; it.Label != "Double" || it.Kind != "function" {
		t.Errorf("first completion %+v", it)
	}
	// Typing on refines the list; Fyne sends a letter's key before its rune.
	e.page.TypedKey(&fyne.KeyEvent{Name: fyne.KeyB})
	e.page.TypedRune('b')
	drainUntil(t, h, "the refined list", func() bool { return e.intel.comp != nil })
	key(e, fyne.KeyReturn)
	if got := e.buf.Line(5); got != "\t_ = Double" {
		t.Errorf("after Enter the line is %q", got)
	}
}

// TestSignatureHint: typing "Double(" shows the signature above the caret;
// ")" hides it.
func TestSignatureHint(t *testing.T) {
	e, h, _ := goplsEditor(t)
	typeAt(e, 5, 6, "Double(")
	drainUntil(t, h, "the signature", func() bool { return e.intel.sigBox != nil })
	if text := hoverText(e.intel.sigBox); !strings.Contains(text, "Double(n int) int") || !strings.Contains(text, "→ n int") {
		t.Errorf("signature hint %q", text)
	}
	e.page.TypedRune(')')
	if e.intel.sigBox != nil {
		t.Error("the hint stayed after )")
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

// TestNoCompletionAfterADotInACommentOrString: a "." typed in a comment or
// a string asks gopls for nothing, and Enter after it breaks the line (a
// list opened there, and Enter would have accepted a symbol); in code it
// still opens the list.
func TestNoCompletionAfterADotInACommentOrString(t *testing.T) {
	e, _, _ := goplsEditor(t)
	for _, tc := range []struct{ name, typed string }{
		{"comment", "// see fmt."},
		{"string", "_ = \"a."},
	} {
		typeAt(e, 5, 7, "\n"+tc.typed)
		if e.intel.compWanted || e.intel.comp != nil {
			t.Errorf("%s: a dot asked for completion", tc.name)
		}
		lines := e.buf.LineCount()
		key(e, fyne.KeyReturn)
		if got := e.buf.Line(5); e.buf.LineCount() != lines+1 || !strings.HasPrefix(got, tc.typed) {
			t.Errorf("%s: Enter after the dot did not break the line: line 6 is %q", tc.name, got)
		}
		for i := 0; i < 20 && e.buf.Line(5) != "}"; i++ {
			e.Undo()
		}
	}
	typeAt(e, 5, 7, "\n\tfmt.")
	if !e.intel.compWanted {
		t.Fatal("a dot in code asked for no completion") // what gopls answers is TestIntelHoverCompletionAndKeys's
	}
}

// TestSquigglesFollowEditsBeforeGoplsAnswers: a squiggle moves with the
// code it is about as the person types above it, before gopls answers
// for the new text; diagnostics gopls computed on the older text (a
// publication that arrives late) are drawn where that code is now; and
// the typed text reaches gopls, whose next diagnostics agree.
func TestSquigglesFollowEditsBeforeGoplsAnswers(t *testing.T) {
	e, h, client := goplsEditor(t)
	e.SetCaret(textbuf.Pos{Line: 3, Col: 7})
	test.Type(e.page, " + undefinedVar") // x := 1 + undefinedVar
	var old []lsp.Diagnostic
	drainUntil(t, h, "the diagnostic", func() bool {
		old = client.Diagnostics("main.go")
		return len(old) == 1 && strings.Contains(old[0].Message, "undefinedVar") && old[0].Key == e.buf.Version()
	})
	e.SetDiagnostics(old)
	at := func() lsp.Position { return e.Diagnostics()[0].Range.Start }
	if at() != (lsp.Position{Line: 4, Col: 11}) {
		t.Fatalf("the diagnostic is at %+v, want 4:11", at())
	}

	e.SetCaret(textbuf.Pos{Line: 0, Col: 12}) // the end of "package main"
	key(e, fyne.KeyReturn, fyne.KeyReturn, fyne.KeyReturn)
	if at() != (lsp.Position{Line: 7, Col: 11}) {
		t.Errorf("after three lines typed above it the diagnostic is at %+v, want 7:11", at())
	}
	e.SetDiagnostics(old) // gopls's answer for the text before the new lines, arriving now
	if at() != (lsp.Position{Line: 7, Col: 11}) {
		t.Errorf("a late answer for the older text is drawn at %+v, want 7:11", at())
	}
	e.place()
	gutter := gutterWidth(e.buf.LineCount())
	if row := e.grid.Rows[3-e.shown.first]; row.Cells[gutter-2].Rune == '●' {
		t.Errorf("line 4, now blank, keeps the gutter mark: %q", rowText(row))
	}
	row := e.grid.Rows[6-e.shown.first]
	cell := row.Cells[gutter+textbuf.CellOf(e.buf.Line(6), 10, e.tabWidth)]
	if cell.Rune != 'u' || cell.Style == nil || !cell.Style.Style().Underline || row.Cells[gutter-2].Rune != '●' {
		t.Errorf("line 7 (%q): undefinedVar is not underlined and marked: %+v", rowText(row), cell)
	}

	drainUntil(t, h, "gopls's diagnostic for the new text", func() bool {
		ds := client.Diagnostics("main.go")
		return len(ds) == 1 && ds[0].Key == e.buf.Version() && ds[0].Range.Start == lsp.Position{Line: 7, Col: 11}
	})
	e.SetDiagnostics(client.Diagnostics("main.go"))
	if at() != (lsp.Position{Line: 7, Col: 11}) {
		t.Errorf("gopls's own answer for the new text is drawn at %+v, want 7:11", at())
	}
}

// TestDiagnosticsOfAnotherBufferAreNotDrawn: diagnostics on a text of a
// buffer the editor no longer shows (the file was reloaded) cannot be
// moved onto the new text, so they are not drawn; a Key of 0 stands for
// the text as it is.
func TestDiagnosticsOfAnotherBufferAreNotDrawn(t *testing.T) {
	e := newTestEditor(t, goplsMain, true)
	e.AttachIntel("main.go", lsp.New(lsp.Config{Root: t.TempDir(), Logger: log.New(io.Discard, "", 0)}), &testHost{q: make(chan func(), 64)})
	defer e.StopIntel()
	d := lsp.Diagnostic{Path: "main.go", Range: lsp.Range{Start: lsp.Position{Line: 4, Col: 2}, End: lsp.Position{Line: 4, Col: 3}}, Severity: "error", Key: e.buf.Version()}
	reloaded := textbuf.New(goplsMain)
	e.SetText(reloaded, textbuf.NewHighlighter(reloaded.LineCount(), reloaded.Line), [32]byte{})
	e.SetDiagnostics([]lsp.Diagnostic{d})
	if n := len(e.Diagnostics()); n != 0 {
		t.Errorf("%d diagnostics of the old buffer are drawn", n)
	}
	d.Key = 0
	e.SetDiagnostics([]lsp.Diagnostic{d})
	if n := len(e.Diagnostics()); n != 1 {
		t.Errorf("%d diagnostics without a key are drawn, want 1", n)
	}
}

// TestReloadedTextReachesGopls: a text read from disk before the person's
// last keystroke in the editor it replaces (a reload) still reaches gopls:
// the client keeps the newest text of a file, and the reloaded one counts
// as newer than any the editor held.
func TestReloadedTextReachesGopls(t *testing.T) {
	e, h, client := goplsEditor(t)
	reloaded := textbuf.New(strings.Replace(goplsMain, "x := 1", "x := 1 + fromDisk", 1)) // read before the keystroke below
	typeAt(e, 4, 8, " + typed")
	e.SyncIntel()
	drainUntil(t, h, "the typed text's diagnostic", func() bool {
		ds := client.Diagnostics("main.go")
		return len(ds) == 1 && strings.Contains(ds[0].Message, "typed")
	})
	e.SetText(reloaded, textbuf.NewHighlighter(reloaded.LineCount(), reloaded.Line), [32]byte{})
	e.SyncIntel()
	drainUntil(t, h, "the reloaded text's diagnostic", func() bool {
		ds := client.Diagnostics("main.go")
		return len(ds) == 1 && strings.Contains(ds[0].Message, "fromDisk")
	})
}
