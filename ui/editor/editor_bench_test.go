package editor

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

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
