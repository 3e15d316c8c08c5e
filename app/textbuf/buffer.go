package textbuf

import (
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Pos is a place in the text: a 0-based line and a 0-based column counted
// in runes (not bytes, not display cells).
type Pos struct{ Line, Col int }

// Before reports whether p comes before q.
func (p Pos) Before(q Pos) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Col < q.Col
}

// Range is the text from Start up to End. Either end may come first; use
// Ordered to get Start <= End.
type Range struct{ Start, End Pos }

// Ordered returns r with Start <= End.
func (r Range) Ordered() Range {
	if r.End.Before(r.Start) {
		return Range{r.End, r.Start}
	}
	return r
}

// Empty reports whether r holds no text.
func (r Range) Empty() bool { return r.Start == r.End }

// Change says which lines an edit touched: lines [Line, Line+Removed) of
// the text before became lines [Line, Line+Added) after. Removed and Added
// are at least 1.
type Change struct{ Line, Removed, Added int }

// Buffer is an editable text held as one string per line, without line
// endings.
//
// A line array (in chunks, chunks.go) rather than a piece table or rope:
// an edit in the middle of a 100k-line file rewrites one short string and
// at worst moves a chunk's string headers and the chunk list; reading line
// i for display is a search of the chunk list with no assembly; and the
// highlighter and find work line by line anyway. A Snapshot shares the
// chunks, which are copied before their next change. Strings rather than []rune keep memory at one byte per ASCII
// character; converting a rune column to a byte offset walks one short
// line. Not safe for concurrent use.
type Buffer struct {
	lines   lineStore
	crlf    bool
	hist    history
	version uint64

	// OnChange, when set, is called after every change to the text,
	// including undo and redo, with the lines it touched.
	OnChange func(Change)
	// Now is the clock for grouping typing runs; tests replace it.
	Now func() time.Time
}

// New returns a buffer holding text. When the first line ending in text is
// CRLF the buffer is a CRLF buffer: it holds LF internally and FileText
// writes CRLF again.
func New(text string) *Buffer {
	b := &Buffer{Now: time.Now}
	if i := strings.IndexByte(text, '\n'); i > 0 && text[i-1] == '\r' {
		b.crlf = true
	}
	if strings.Contains(text, "\r\n") {
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	b.lines.init(strings.Split(text, "\n"))
	b.version = versions.Add(1)
	return b
}

// versions numbers the texts of every Buffer in the process.
var versions atomic.Uint64

// Version names the buffer's current text: it changes with every change
// of the text, and no two texts of any buffers in the process share one,
// so a path and a Version name one text (a reader that saw it need not
// read it again).
func (b *Buffer) Version() uint64 { return b.version }

// Renumber gives the text a new Version, larger than every Version given
// before in the process, without changing it: a buffer that takes over
// from another (a reload, a new editor of the same file) then names its
// text after every text of the one before, even when it was made before
// that one's last edit.
func (b *Buffer) Renumber() { b.version = versions.Add(1) }

// Snapshot is a buffer's text at one moment, cheap to take (one pointer
// per chunk of lines, chunks.go) and read on any goroutine: the whole
// text is joined only when FileText asks for it, by whoever asks. The
// zero Snapshot holds no text (FileText is "").
type Snapshot struct {
	chunks  [][]string
	crlf    bool
	version uint64
}

// Snapshot takes the text as it is now. Main goroutine (the buffer's
// owner) only; the Snapshot may then be read on any goroutine.
func (b *Buffer) Snapshot() Snapshot {
	return Snapshot{chunks: b.lines.snapshot(), crlf: b.crlf, version: b.version}
}

// Version is the buffer's Version when the snapshot was taken.
func (s Snapshot) Version() uint64 { return s.version }

// FileText is the text as Buffer.FileText gave it when the snapshot was taken.
func (s Snapshot) FileText() string {
	if s.crlf {
		return s.join("\r\n")
	}
	return s.join("\n")
}

// Text is the text as Buffer.Text gave it (LF line endings) when the
// snapshot was taken.
func (s Snapshot) Text() string { return s.join("\n") }

func (s Snapshot) join(sep string) string {
	size, n := 0, 0
	for _, c := range s.chunks {
		n += len(c)
		for _, l := range c {
			size += len(l)
		}
	}
	var sb strings.Builder
	sb.Grow(size + max(n-1, 0)*len(sep))
	for i, c := range s.chunks {
		for j, l := range c {
			if i > 0 || j > 0 {
				sb.WriteString(sep)
			}
			sb.WriteString(l)
		}
	}
	return sb.String()
}

// CRLF reports whether the text is saved with CRLF line endings.
func (b *Buffer) CRLF() bool { return b.crlf }

// LineCount returns the number of lines; an empty text has one line, and a
// final newline starts an empty last line.
func (b *Buffer) LineCount() int { return b.lines.n }

// Line returns line i (0-based) without its line ending.
func (b *Buffer) Line(i int) string { return b.lines.line(i) }

// Text returns the whole text with LF line endings.
func (b *Buffer) Text() string { return b.lines.join(0, b.lines.n-1, "\n") }

// FileText returns the text as it is saved: with CRLF line endings when
// the buffer was read with them.
func (b *Buffer) FileText() string {
	if b.crlf {
		return b.lines.join(0, b.lines.n-1, "\r\n")
	}
	return b.Text()
}

// End returns the position after the last rune.
func (b *Buffer) End() Pos {
	last := b.lines.n - 1
	return Pos{last, utf8.RuneCountInString(b.Line(last))}
}

// LineLen returns the length of line i in runes.
func (b *Buffer) LineLen(i int) int { return utf8.RuneCountInString(b.Line(i)) }

// Clamp returns p moved inside the text.
func (b *Buffer) Clamp(p Pos) Pos {
	p.Line = min(max(p.Line, 0), b.lines.n-1)
	p.Col = min(max(p.Col, 0), b.LineLen(p.Line))
	return p
}

// Slice returns the text of r, with LF line endings.
func (b *Buffer) Slice(r Range) string {
	r = b.clampRange(r)
	s, e := r.Start, r.End
	if s.Line == e.Line {
		line := b.Line(s.Line)
		return line[byteOffset(line, s.Col):byteOffset(line, e.Col)]
	}
	var sb strings.Builder
	first := b.Line(s.Line)
	sb.WriteString(first[byteOffset(first, s.Col):])
	for _, l := range b.lines.rangeOf(s.Line+1, e.Line-1) {
		sb.WriteByte('\n')
		sb.WriteString(l)
	}
	last := b.Line(e.Line)
	sb.WriteByte('\n')
	sb.WriteString(last[:byteOffset(last, e.Col)])
	return sb.String()
}

func (b *Buffer) clampRange(r Range) Range {
	r = r.Ordered()
	return Range{b.Clamp(r.Start), b.Clamp(r.End)}
}

// Insert inserts s at p (clamped into the text; CRLF in s becomes LF) and
// returns the position after it. A single rune typed where the previous
// one ended, within a second, joins the previous undo group.
func (b *Buffer) Insert(p Pos, s string) Pos {
	return b.Replace(Range{p, p}, s)
}

// Delete removes the text of r and returns it.
func (b *Buffer) Delete(r Range) string {
	r = b.clampRange(r)
	removed := b.Slice(r)
	b.Replace(r, "")
	return removed
}

// Replace replaces the text of r with s as one undo step and returns the
// position after the new text.
func (b *Buffer) Replace(r Range, s string) Pos {
	r = b.clampRange(r)
	s = normalize(s)
	removed := b.Slice(r)
	if removed == "" && s == "" {
		return r.Start
	}
	end := b.apply(r, s)
	b.hist.record(edit{at: r.Start, removed: removed, inserted: s}, end, b.Now())
	return end
}

// apply replaces r (ordered, clamped) with s without touching the history.
func (b *Buffer) apply(r Range, s string) Pos {
	first, last := b.Line(r.Start.Line), b.Line(r.End.Line)
	head := first[:byteOffset(first, r.Start.Col)]
	tail := last[byteOffset(last, r.End.Col):]
	parts := strings.Split(s, "\n")
	n := len(parts) - 1
	end := Pos{r.Start.Line + n, utf8.RuneCountInString(parts[n])}
	if n == 0 {
		end.Col += r.Start.Col
	}
	parts[0] = head + parts[0]
	parts[n] += tail
	b.lines.replace(r.Start.Line, r.End.Line, parts)
	b.version = versions.Add(1)
	if b.OnChange != nil {
		b.OnChange(Change{Line: r.Start.Line, Removed: r.End.Line - r.Start.Line + 1, Added: len(parts)})
	}
	return end
}

// normalize turns CRLF and lone CR line endings in inserted text into LF.
func normalize(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// byteOffset returns the byte offset of rune column col in line, or
// len(line) when col is past its end.
func byteOffset(line string, col int) int {
	if col <= 0 {
		return 0
	}
	for i := range line {
		if col == 0 {
			return i
		}
		col--
	}
	return len(line)
}

// endOf returns the position after text s inserted at p.
func endOf(p Pos, s string) Pos {
	n := strings.Count(s, "\n")
	if n == 0 {
		return Pos{p.Line, p.Col + utf8.RuneCountInString(s)}
	}
	return Pos{p.Line + n, utf8.RuneCountInString(s[strings.LastIndexByte(s, '\n')+1:])}
}
