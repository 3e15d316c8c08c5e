package textbuf

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// bigText is n numbered lines of Go-like text.
func bigText(n int) string {
	var sb strings.Builder
	for i := range n {
		if i > 0 {
			sb.WriteByte('\n')
		}
		fmt.Fprintf(&sb, "\treturn fmt.Sprint(\"v\", y, s, 'c', %d)", i)
	}
	return sb.String()
}

// TestSnapshotsKeepTheirText: random edits across chunk boundaries (one
// rune, line breaks, whole runs of lines removed or pasted) give the same
// text as the same edits on a plain string, and every snapshot taken on
// the way keeps its text while the buffer changes on, read from another
// goroutine meanwhile (the race detector watches).
func TestSnapshotsKeepTheirText(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	want := bigText(5 * chunkLines)
	b := New(want)
	type taken struct {
		snap Snapshot
		text string
	}
	var snaps []taken
	var readers sync.WaitGroup
	for step := range 400 {
		lines := strings.Split(want, "\n")
		l1 := rng.IntN(len(lines))
		l2 := min(l1+[]int{0, 0, 1, 3, chunkLines, 2 * chunkLines}[rng.IntN(6)], len(lines)-1)
		r := Range{Pos{l1, rng.IntN(len(lines[l1]) + 1)}, Pos{l2, rng.IntN(len(lines[l2]) + 1)}}.Ordered()
		ins := []string{"x", "", "\n", "a\nb\nc", strings.Repeat("new line\n", chunkLines+7)}[rng.IntN(5)]
		b.Replace(r, ins)
		want = replaceAt(lines, r, ins)
		if got := b.Text(); got != want {
			t.Fatalf("step %d: replacing %+v with %q: the buffer's text differs from the reference", step, r, ins)
		}
		if b.LineCount() != strings.Count(want, "\n")+1 {
			t.Fatalf("step %d: %d lines, want %d", step, b.LineCount(), strings.Count(want, "\n")+1)
		}
		if step%7 == 0 {
			s := taken{b.Snapshot(), want}
			snaps = append(snaps, s)
			readers.Go(func() {
				if s.snap.FileText() != s.text {
					t.Errorf("step %d: a snapshot read on another goroutine differs from the text it was taken of", step)
				}
			})
		}
	}
	readers.Wait()
	for i, s := range snaps {
		if s.snap.FileText() != s.text {
			t.Fatalf("snapshot %d changed after it was taken", i)
		}
	}
}

// replaceAt is Replace on a plain string split into lines.
func replaceAt(lines []string, r Range, s string) string {
	off := func(p Pos) int {
		n := 0
		for _, l := range lines[:p.Line] {
			n += len(l) + 1
		}
		return n + p.Col // ASCII text: columns are bytes
	}
	text := strings.Join(lines, "\n")
	return text[:off(r.Start)] + s + text[off(r.End):]
}

// TestSnapshotCRLFAndVersion: a snapshot of a CRLF buffer writes CRLF,
// and names the buffer's version when it was taken.
func TestSnapshotCRLFAndVersion(t *testing.T) {
	b := New("a\r\nb\r\n")
	s := b.Snapshot()
	b.Insert(Pos{0, 1}, "x")
	if s.FileText() != "a\r\nb\r\n" || s.Text() != "a\nb\n" || s.Version() == b.Version() {
		t.Fatalf("snapshot %q (version %d, buffer %d)", s.FileText(), s.Version(), b.Version())
	}
	if (Snapshot{}).FileText() != "" {
		t.Fatal("the zero snapshot holds text")
	}
}

// BenchmarkSnapshot100k is one keystroke in a 100k-line file followed by
// a snapshot: what the editor's sync to gopls costs the main goroutine.
func BenchmarkSnapshot100k(b *testing.B) {
	buf := New(bigText(100_000))
	for b.Loop() {
		buf.Replace(Range{Pos{50_000, 3}, Pos{50_000, 4}}, "x") // a rune typed over one
		_ = buf.Snapshot()
	}
}

// BenchmarkInsert100k is one keystroke (a rune typed over one) in the middle of a 100k-line file.
func BenchmarkInsert100k(b *testing.B) {
	buf := New(bigText(100_000))
	for b.Loop() {
		buf.Replace(Range{Pos{50_000, 3}, Pos{50_000, 4}}, "x") // a rune typed over one
	}
}

// BenchmarkFileText100k joins a 100k-line file, what a sync cost the main
// goroutine before snapshots.
func BenchmarkFileText100k(b *testing.B) {
	buf := New(bigText(100_000))
	for b.Loop() {
		_ = buf.FileText()
	}
}

// BenchmarkLineByLine100k reads every line of a 100k-line file by index,
// as drawing and highlighting do.
func BenchmarkLineByLine100k(b *testing.B) {
	buf := New(bigText(100_000))
	n := 0
	for b.Loop() {
		for i := range buf.LineCount() {
			n += len(buf.Line(i))
		}
	}
	_ = n
}
