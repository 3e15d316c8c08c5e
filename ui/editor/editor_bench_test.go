package editor

import (
	"fmt"
	"io"
	"log"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/lsp"
	"trestle/app/textbuf"
)

// goSource returns n lines of plausible Go: functions with comments,
// strings and numbers.
func goSource(n int) string {
	var b strings.Builder
	b.WriteString("package big\n\nimport \"fmt\"\n")
	for i := 3; i < n; i += 8 {
		fmt.Fprintf(&b, "\n// f%d prints its number.\nfunc f%d(x int) string {\n\t/* block */ y := x * %d\n\ts := `raw %d`\n\treturn fmt.Sprint(\"v\", y, s, 'c', 1.5e3)\n}\n", i, i, i, i)
		b.WriteString("var _ = 0x1F\n")
	}
	return b.String()
}

// benchEditor opens text as Go in a 1100x720 test window, the size the
// real window starts at.
func benchEditor(b *testing.B, text string) *Editor {
	b.Helper()
	buf := textbuf.New(text)
	e := New(buf, textbuf.NewHighlighter(buf.LineCount(), buf.Line))
	w := test.NewTempWindow(b, e)
	w.Resize(fyne.NewSize(1100, 720))
	w.Canvas().Focus(e.page)
	return e
}

// BenchmarkEditorOpen100k loads a 100k-line Go file (buffer and
// highlighting) and lays it out for the first time.
func BenchmarkEditorOpen100k(b *testing.B) {
	test.NewTempApp(b)
	text := goSource(100_000)
	for b.Loop() {
		benchEditor(b, text)
	}
}

// BenchmarkEditorKeystroke100k types one rune in the middle of a 100k-line
// Go file: the buffer edit, the re-highlight and the rebuild of the
// visible rows.
func BenchmarkEditorKeystroke100k(b *testing.B) {
	test.NewTempApp(b)
	e := benchEditor(b, goSource(100_000))
	e.ShowLine(50_000)
	i := 0
	for b.Loop() {
		if i%32 == 0 {
			e.moveTo(textbuf.Pos{Line: 50_000 + i/32}, false)
		}
		e.page.TypedRune('x')
		i++
	}
}

// BenchmarkEditorKeystrokeOpensComment100k types the "/" that turns "*"
// into the start of a block comment near the top of a 100k-line file, the
// worst case for re-highlighting: every following line is rescanned.
func BenchmarkEditorKeystrokeOpensComment100k(b *testing.B) {
	test.NewTempApp(b)
	e := benchEditor(b, goSource(100_000))
	e.moveTo(textbuf.Pos{Line: 1}, false)
	e.page.TypedRune('*')
	for b.Loop() {
		e.moveTo(textbuf.Pos{Line: 1}, false)
		e.page.TypedRune('/')
		e.page.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
	}
}

// BenchmarkEditorScrollPage100k scrolls a 100k-line file by a page.
func BenchmarkEditorScrollPage100k(b *testing.B) {
	test.NewTempApp(b)
	e := benchEditor(b, goSource(100_000))
	page := e.scroll.Size().Height
	dir := float32(-1)
	for b.Loop() {
		if e.scroll.Offset.Y > 1e6 {
			dir = 1
		} else if e.scroll.Offset.Y == 0 {
			dir = -1
		}
		e.scroll.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: dir * page}})
	}
}

// BenchmarkEntrySetText3k sets 3k lines in Fyne's multi-line Entry, the
// widget the editor replaces, for comparison.
func BenchmarkEntrySetText3k(b *testing.B) {
	test.NewTempApp(b)
	text := goSource(3000)
	entry := widget.NewMultiLineEntry()
	w := test.NewTempWindow(b, entry)
	w.Resize(fyne.NewSize(1100, 720))
	for b.Loop() {
		entry.SetText(text)
	}
}

// BenchmarkEntryKeystroke3k types one rune in the middle of 3k lines in
// Fyne's multi-line Entry.
func BenchmarkEntryKeystroke3k(b *testing.B) {
	test.NewTempApp(b)
	entry := widget.NewMultiLineEntry()
	w := test.NewTempWindow(b, entry)
	w.Resize(fyne.NewSize(1100, 720))
	entry.SetText(goSource(3000))
	w.Canvas().Focus(entry)
	entry.CursorRow = 1500
	for b.Loop() {
		entry.TypedRune('x')
	}
}

// benchHost is an editor.Host for benchmarks: Do runs at once (the
// benchmark is the main goroutine), Go in a goroutine it waits for.
type benchHost struct{ running sync.WaitGroup }

func (h *benchHost) Definition(string, lsp.Position)     {}
func (h *benchHost) References(string, lsp.Position)     {}
func (h *benchHost) Outline(string)                      {}
func (h *benchHost) Rename(string, lsp.Position, string) {}
func (h *benchHost) Go(fn func())                        { h.running.Go(fn) }
func (h *benchHost) Do(fn func())                        { fn() }

// BenchmarkEditorSync100k is what the main goroutine spends to hand an
// edited 100k-line Go file to gopls's client (the sync that follows a
// pause in typing) beside what it spent before: "snapshot" is the
// editor's sync (a snapshot of the buffer, joined off the main goroutine
// when gopls is sent it), "join" is the old one (the whole text joined
// and handed over on the main goroutine). Each edit types a rune over one
// (BenchmarkEditorKeystroke100k is the keystroke). The client has no gopls
// running, so nothing else competes for the CPU.
func BenchmarkEditorSync100k(b *testing.B) {
	test.NewTempApp(b)
	e := benchEditor(b, goSource(100_000))
	client := lsp.New(lsp.Config{Root: b.TempDir(), Logger: log.New(io.Discard, "", 0)})
	defer client.Close()
	h := &benchHost{}
	e.AttachIntel("big.go", client, h)
	defer func() { e.StopIntel(); h.running.Wait() }()
	at := textbuf.Range{Start: textbuf.Pos{Line: 50_000, Col: 1}, End: textbuf.Pos{Line: 50_000, Col: 2}}
	b.Run("snapshot", func(b *testing.B) {
		for b.Loop() {
			e.buf.Replace(at, "x")
			e.SyncIntel()
		}
	})
	b.Run("join", func(b *testing.B) {
		for b.Loop() {
			e.buf.Replace(at, "x")
			client.OpenDocument("big.go", e.buf.FileText())
		}
	})
}
