package textbuf

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// model is the plain-string reference the buffer is checked against.
type model struct{ text string }

// offset is the byte offset of p in the model's text.
func (m model) offset(p Pos) int {
	lines := strings.Split(m.text, "\n")
	off := 0
	for _, l := range lines[:p.Line] {
		off += len(l) + 1
	}
	return off + byteOffset(lines[p.Line], p.Col)
}

func (m *model) replace(r Range, s string) {
	a, b := m.offset(r.Start), m.offset(r.End)
	m.text = m.text[:a] + s + m.text[b:]
}

var pieces = []string{"a", "é", "世", "\n", "\t", "x̃", "ab\ncd", "\n\n", "🙂", "word "}

func randPos(rng *rand.Rand, b *Buffer) Pos {
	line := rng.IntN(b.LineCount())
	return Pos{line, rng.IntN(b.LineLen(line) + 1)}
}

func TestBufferRandomEdits(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		start := "package x\n\nfunc f() {}\n"
		b, m := New(start), model{start}
		var history []string // model texts, for undo
		var redo []string
		clock := time.Unix(0, 0)
		b.Now = func() time.Time { return clock }
		for step := range 60 {
			clock = clock.Add(2 * time.Second) // every edit its own group
			switch op := rng.IntN(10); {
			case op < 4:
				p, s := randPos(rng, b), pieces[rng.IntN(len(pieces))]
				history, redo = append(history, m.text), nil
				end := b.Insert(p, s)
				m.replace(Range{p, p}, s)
				if want := endOf(p, s); end != want {
					t.Fatalf("seed %d step %d: Insert end = %v, want %v", seed, step, end, want)
				}
			case op < 7:
				r := Range{randPos(rng, b), randPos(rng, b)}.Ordered()
				if r.Empty() {
					continue
				}
				history, redo = append(history, m.text), nil
				want := m.text[m.offset(r.Start):m.offset(r.End)]
				if got := b.Delete(r); got != want {
					t.Fatalf("seed %d step %d: Delete(%v) = %q, want %q", seed, step, r, got, want)
				}
				m.replace(r, "")
			case op < 9:
				if _, ok := b.Undo(); ok != (len(history) > 0) {
					t.Fatalf("seed %d step %d: Undo ok = %v with %d steps", seed, step, ok, len(history))
				}
				if len(history) > 0 {
					redo = append(redo, m.text)
					m.text, history = history[len(history)-1], history[:len(history)-1]
				}
			default:
				if _, ok := b.Redo(); ok != (len(redo) > 0) {
					t.Fatalf("seed %d step %d: Redo ok = %v with %d steps", seed, step, ok, len(redo))
				}
				if len(redo) > 0 {
					history = append(history, m.text)
					m.text, redo = redo[len(redo)-1], redo[:len(redo)-1]
				}
			}
			if got := b.Text(); got != m.text {
				t.Fatalf("seed %d step %d: text = %q, want %q", seed, step, got, m.text)
			}
			if len(history) == 0 && b.Modified() {
				t.Fatalf("seed %d step %d: modified with everything undone", seed, step)
			}
		}
	}
}

func TestUndoGroupsTypingRun(t *testing.T) {
	tests := []struct {
		name  string
		type_ func(b *Buffer, tick func(time.Duration))
		want  []string // texts after each Undo
	}{
		{
			name: "one run",
			type_: func(b *Buffer, tick func(time.Duration)) {
				for i, r := range "abc" {
					b.Insert(Pos{0, i}, string(r))
					tick(100 * time.Millisecond)
				}
			},
			want: []string{""},
		},
		{
			name: "pause ends the run",
			type_: func(b *Buffer, tick func(time.Duration)) {
				b.Insert(Pos{0, 0}, "a")
				b.Insert(Pos{0, 1}, "b")
				tick(2 * time.Second)
				b.Insert(Pos{0, 2}, "c")
			},
			want: []string{"ab", ""},
		},
		{
			name: "newline ends the run",
			type_: func(b *Buffer, tick func(time.Duration)) {
				b.Insert(Pos{0, 0}, "a")
				b.Insert(Pos{0, 1}, "\n")
				b.Insert(Pos{1, 0}, "b")
			},
			want: []string{"a\n", "a", ""},
		},
		{
			name: "caret jump ends the run",
			type_: func(b *Buffer, tick func(time.Duration)) {
				b.Insert(Pos{0, 0}, "a")
				b.Insert(Pos{0, 1}, "b")
				b.Insert(Pos{0, 0}, "c")
			},
			want: []string{"ab", ""},
		},
		{
			name: "seal ends the run",
			type_: func(b *Buffer, tick func(time.Duration)) {
				b.Insert(Pos{0, 0}, "a")
				b.Seal()
				b.Insert(Pos{0, 1}, "b")
			},
			want: []string{"a", ""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := New("")
			now := time.Unix(0, 0)
			b.Now = func() time.Time { return now }
			tt.type_(b, func(d time.Duration) { now = now.Add(d) })
			for i, want := range tt.want {
				b.Undo()
				if got := b.Text(); got != want {
					t.Fatalf("after undo %d: %q, want %q", i+1, got, want)
				}
			}
			if b.CanUndo() {
				t.Error("more left to undo")
			}
		})
	}
}

func TestModifiedFollowsSave(t *testing.T) {
	b := New("x")
	if b.Modified() {
		t.Fatal("new buffer modified")
	}
	b.Insert(Pos{0, 1}, "y")
	if !b.Modified() {
		t.Fatal("edit not modified")
	}
	b.Undo()
	if b.Modified() {
		t.Fatal("undo back to the saved text still modified")
	}
	b.Redo()
	b.MarkSaved()
	if b.Modified() {
		t.Fatal("modified after save")
	}
	b.Insert(Pos{0, 2}, "z") // would join the run without MarkSaved sealing it
	b.Undo()
	if b.Modified() || b.Text() != "xy" {
		t.Fatalf("after undoing past-save typing: %q modified=%v", b.Text(), b.Modified())
	}
}

func TestLineEndings(t *testing.T) {
	tests := []struct {
		name, in, text, file string
		crlf                 bool
	}{
		{name: "lf", in: "a\nb\n", text: "a\nb\n", file: "a\nb\n"},
		{name: "crlf", in: "a\r\nb\r\n", text: "a\nb\n", file: "a\r\nb\r\n", crlf: true},
		{name: "no ending", in: "ab", text: "ab", file: "ab"},
		{name: "lone cr kept", in: "a\rb\n", text: "a\rb\n", file: "a\rb\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := New(tt.in)
			if b.Text() != tt.text || b.FileText() != tt.file || b.CRLF() != tt.crlf {
				t.Errorf("Text %q FileText %q CRLF %v", b.Text(), b.FileText(), b.CRLF())
			}
		})
	}
	b := New("a\r\nb")
	b.Insert(Pos{0, 1}, "x\r\ny")
	if got := b.FileText(); got != "ax\r\ny\r\nb" {
		t.Errorf("pasted CRLF into a CRLF buffer: %q", got)
	}
}

func TestChangeReported(t *testing.T) {
	b := New("one\ntwo\nthree")
	var got []Change
	b.OnChange = func(c Change) { got = append(got, c) }
	b.Insert(Pos{1, 1}, "x\ny")
	b.Delete(Range{Pos{0, 1}, Pos{2, 0}})
	want := []Change{{1, 1, 2}, {0, 3, 1}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("changes = %v, want %v", got, want)
	}
}

func TestSliceAndClamp(t *testing.T) {
	b := New("héllo\nwörld")
	if got := b.Slice(Range{Pos{1, 3}, Pos{0, 1}}); got != "éllo\nwör" {
		t.Errorf("Slice = %q", got)
	}
	if got := b.Clamp(Pos{5, 99}); got != (Pos{1, 5}) {
		t.Errorf("Clamp = %v", got)
	}
	if !utf8.ValidString(b.Slice(Range{Pos{0, 0}, b.End()})) {
		t.Error("slice is not valid UTF-8")
	}
}

// TestReplaceAllIsOneUndo: every match replaced at once, one Undo takes
// them all back, one Redo makes them again.
func TestReplaceAllIsOneUndo(t *testing.T) {
	const text = "Foo foo\nbar FOO foo\nfoofoo"
	b := New(text)
	n := b.ReplaceAll(b.Find("foo", false), "quux")
	want := "quux quux\nbar quux quux\nquuxquux"
	if n != 6 || b.Text() != want {
		t.Fatalf("ReplaceAll = %d, %q; want 6, %q", n, b.Text(), want)
	}
	if _, ok := b.Undo(); !ok || b.Text() != text {
		t.Fatalf("one Undo gives %q, want %q", b.Text(), text)
	}
	if _, ok := b.Redo(); !ok || b.Text() != want {
		t.Fatalf("one Redo gives %q, want %q", b.Text(), want)
	}
	if n := b.ReplaceAll(b.Find("nothing", true), "x"); n != 0 {
		t.Errorf("replacing no match = %d", n)
	}
	b = New("a\nb")
	b.ReplaceAll(b.Find("a", true), "x\ny")
	if b.Text() != "x\ny\nb" {
		t.Errorf("a replacement with a newline gives %q", b.Text())
	}
}

// TestVersionAndSnapshot: every text of every buffer has its own version;
// a snapshot keeps the text it was taken with while the buffer changes.
func TestVersionAndSnapshot(t *testing.T) {
	a, b := New("one\r\ntwo\r\n"), New("one\r\ntwo\r\n")
	if a.Version() == b.Version() {
		t.Error("two buffers share a version")
	}
	snap, v := a.Snapshot(), a.Version()
	a.Insert(Pos{0, 0}, "zero\n")
	if a.Version() == v {
		t.Error("an edit kept the version")
	}
	if got := snap.FileText(); got != "one\r\ntwo\r\n" {
		t.Errorf("snapshot = %q, want the text before the edit", got)
	}
	if got, want := a.Snapshot().FileText(), a.FileText(); got != want {
		t.Errorf("snapshot = %q, FileText %q", got, want)
	}
}
