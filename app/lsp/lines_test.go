package lsp

import (
	"strings"
	"testing"
)

// naiveLine is the 0-based line n of text found by scanning from the
// start, as positions were converted before the index.
func naiveLine(text string, n int) string {
	ls := strings.Split(text, "\n")
	if n < 0 || n >= len(ls) {
		return ""
	}
	return strings.TrimSuffix(ls[n], "\r")
}

func TestLinesIndexAgreesWithAScan(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"empty", ""},
		{"one line, no newline", "package p"},
		{"trailing newline", "a\nb\n"},
		{"blank lines", "\n\n\nx\n\n"},
		{"crlf", "a\r\nbé\r\n\r\nc"},
		{"wide runes", "x := \"𝄞é\"\n\ty := 1 // 𝄞\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLines(tc.text)
			if want := strings.Count(tc.text, "\n") + 1; l.count() != want {
				t.Fatalf("count = %d, want %d", l.count(), want)
			}
			for n := -1; n <= l.count()+1; n++ {
				if got, want := l.line(n), naiveLine(tc.text, n); got != want {
					t.Errorf("line(%d) = %q, want %q", n, got, want)
				}
			}
			for off := 0; off <= len(tc.text); off++ {
				if got, want := l.lineOf(off), strings.Count(tc.text[:off], "\n"); got != want {
					t.Errorf("lineOf(%d) = %d, want %d", off, got, want)
				}
			}
		})
	}
}

// TestPositionsRoundTripThroughTheIndex converts every rune position of
// a text with wide runes to the protocol's and back, and each protocol
// position to its byte offset.
func TestPositionsRoundTripThroughTheIndex(t *testing.T) {
	text := "package p\r\n\nvar s = \"𝄞é\" // 𝄞\n\tx\nlast"
	l := newLines(text)
	off := 0
	for i, line := range strings.Split(text, "\n") {
		col := 1
		for bi, r := range strings.TrimSuffix(line, "\r") {
			p := Position{Line: i + 1, Col: col}
			pp := toProtocol(l, p)
			if back := fromProtocol(l, pp); back != p {
				t.Errorf("%+v -> %+v -> %+v", p, pp, back)
			}
			if got := offsetOf(l, pp); got != off+bi {
				t.Errorf("offsetOf(%+v) = %d, want %d (rune %q)", pp, got, off+bi, r)
			}
			col++
		}
		off += len(line) + 1
	}
	if got := offsetOf(l, position{Line: 99}); got != len(text) {
		t.Errorf("offsetOf past the end = %d, want %d", got, len(text))
	}
	if got := offsetOf(l, position{Line: 2, Character: 99}); got != strings.Index(text, "\n\tx") {
		t.Errorf("offsetOf past a line's end = %d, want the line's end %d", got, strings.Index(text, "\n\tx"))
	}
}

// TestDiskLinesReuseTheIndexOfTheSameText: a file read again with the
// same text gets the same index; a changed one a new index.
func TestDiskLinesReuseTheIndexOfTheSameText(t *testing.T) {
	var d diskLines
	a := d.get("/p/a.go", []byte("a\nb\n"))
	if d.get("/p/a.go", []byte("a\nb\n")) != a {
		t.Error("the same text was indexed again")
	}
	b := d.get("/p/a.go", []byte("a\nc\n"))
	if b == a || b.line(1) != "c" {
		t.Errorf("a changed text kept its old index (line 1 = %q)", b.line(1))
	}
	for i := range maxDiskLines + 5 {
		d.get("/p/"+strings.Repeat("x", i), []byte("x"))
	}
	if len(d.byAbs) > maxDiskLines || len(d.order) != len(d.byAbs) {
		t.Errorf("%d indexes kept (order %d), want at most %d", len(d.byAbs), len(d.order), maxDiskLines)
	}
}

// TestOpenDocumentVersionReadsAChangedTextOnly: a text named by a version
// the document holds is not asked for again; another version, or a text
// someone else sent since, is.
func TestOpenDocumentVersionReadsAChangedTextOnly(t *testing.T) {
	c := New(Config{Root: t.TempDir()})
	defer c.Close()
	asked := 0
	send := func(key uint64, text string) {
		c.OpenDocumentVersion("a.go", key, func() (string, bool) { asked++; return text, true })
	}
	send(7, "package a\n")
	send(7, "package a\n")
	if asked != 1 {
		t.Errorf("the text of version 7 was asked for %d times, want once", asked)
	}
	send(8, "package a // changed\n")
	if text, _ := c.text("a.go"); asked != 2 || text != "package a // changed\n" {
		t.Errorf("version 8: asked %d times, gopls's text %q", asked, text)
	}
	c.OpenDocument("a.go", "package a // formatted\n") // sent by someone else
	send(8, "package a // changed\n")
	if text, _ := c.text("a.go"); asked != 3 || text != "package a // changed\n" {
		t.Errorf("after another text was sent: asked %d times, gopls's text %q", asked, text)
	}
	send(0, "package a // unnamed\n")
	send(0, "package a // unnamed\n")
	if asked != 5 {
		t.Errorf("a text without a version was asked for %d times in all, want every time (5)", asked)
	}
}
