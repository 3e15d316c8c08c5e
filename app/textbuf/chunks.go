package textbuf

import (
	"fmt"
	"iter"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
)

// The buffer's lines are kept in chunks of at most chunkLines lines, so
// that a Snapshot costs one pointer per chunk instead of one string
// header per line: taking one moves the buffer to a new generation, and
// a chunk of an older generation is shared with a snapshot and copied
// before its first change (chunkLines headers, 16 KB). Measured with a
// 100k-line file (BenchmarkSnapshot100k): a copy of every line header
// cost 9–11 ms with the garbage collector's share, a snapshot of chunks
// costs microseconds.
const chunkLines = 1024

// chunk is a run of consecutive lines.
type chunk struct {
	lines []string
	gen   uint64 // the buffer generation that owns it; an older one is shared with a snapshot
}

// lineStore is the chunked line array. Not safe for concurrent use; a
// snapshot's chunks are never written again.
type lineStore struct {
	chunks []*chunk
	starts []int // starts[i] is the index of chunks[i]'s first line
	n      int   // lines in all
	gen    uint64
	// last is the chunk the last lookup found: reads go line after line
	// (drawing, highlighting), so most find it at once. Atomic, so that
	// reads may run at once as they could on a plain slice.
	last atomic.Int32
}

// init makes s hold lines.
func (s *lineStore) init(lines []string) {
	s.chunks = split(lines, s.gen)
	s.reindex(0)
}

// split cuts lines into chunks of generation gen, none longer than
// chunkLines; it copies nothing but slice headers.
func split(lines []string, gen uint64) []*chunk {
	out := make([]*chunk, 0, len(lines)/chunkLines+1)
	for len(lines) > chunkLines {
		out = append(out, &chunk{lines: lines[:chunkLines:chunkLines], gen: gen})
		lines = lines[chunkLines:]
	}
	return append(out, &chunk{lines: lines, gen: gen})
}

// reindex recomputes starts from chunk i on.
func (s *lineStore) reindex(i int) {
	s.starts = s.starts[:min(i, len(s.starts))]
	at := 0
	if i > 0 {
		at = s.starts[i-1] + len(s.chunks[i-1].lines)
	}
	for _, c := range s.chunks[i:] {
		s.starts = append(s.starts, at)
		at += len(c.lines)
	}
	s.n = at
}

// find returns the chunk holding line i and i's index in it (a read:
// reads may run at once, as they could on a plain slice).
func (s *lineStore) find(i int) (int, int) {
	if c := int(s.last.Load()); c < len(s.chunks) && s.starts[c] <= i {
		if k := i - s.starts[c]; k < len(s.chunks[c].lines) {
			return c, k
		}
		if c+1 < len(s.chunks) && i-s.starts[c+1] < len(s.chunks[c+1].lines) && i >= s.starts[c+1] {
			s.last.Store(int32(c + 1))
			return c + 1, i - s.starts[c+1]
		}
	}
	if i < 0 || i >= s.n {
		panic(fmt.Sprintf("textbuf: line %d out of range [0,%d)", i, s.n))
	}
	c := sort.Search(len(s.starts), func(k int) bool { return s.starts[k] > i }) - 1
	s.last.Store(int32(c))
	return c, i - s.starts[c]
}

// line is line i: at once when it is in the chunk the last lookup found
// (kept small enough to inline), else through find.
func (s *lineStore) line(i int) string {
	if c := int(s.last.Load()); c < len(s.chunks) {
		if k, lines := i-s.starts[c], s.chunks[c].lines; uint(k) < uint(len(lines)) {
			return lines[k]
		}
	}
	c, k := s.find(i)
	return s.chunks[c].lines[k]
}

// all yields every line with its index.
func (s *lineStore) all() iter.Seq2[int, string] {
	return s.rangeOf(0, s.n-1)
}

// rangeOf yields lines first..last with their indexes.
func (s *lineStore) rangeOf(first, last int) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		if first > last {
			return
		}
		c, k := s.find(first)
		for i := first; i <= last; c, k = c+1, 0 {
			for _, l := range s.chunks[c].lines[k:] {
				if i > last || !yield(i, l) {
					return
				}
				i++
			}
		}
	}
}

// join joins lines first..last with sep.
func (s *lineStore) join(first, last int, sep string) string {
	size := 0
	for _, l := range s.rangeOf(first, last) {
		size += len(l) + len(sep)
	}
	var b strings.Builder
	b.Grow(size)
	for i, l := range s.rangeOf(first, last) {
		if i > first {
			b.WriteString(sep)
		}
		b.WriteString(l)
	}
	return b.String()
}

// replace replaces lines from..to (inclusive) with parts (at least one).
func (s *lineStore) replace(from, to int, parts []string) {
	ca, ka := s.find(from)
	cb, kb := s.find(to)
	if ca == cb && to-from+1 == len(parts) && s.chunks[ca].gen == s.gen {
		copy(s.chunks[ca].lines[ka:], parts) // the common case: typing in a line of an owned chunk
		return
	}
	a, b := s.chunks[ca], s.chunks[cb]
	joined := make([]string, 0, ka+len(parts)+len(b.lines)-kb-1)
	joined = append(joined, a.lines[:ka]...)
	joined = append(joined, parts...)
	joined = append(joined, b.lines[kb+1:]...)
	end := cb + 1
	if len(joined) < chunkLines/4 && end < len(s.chunks) { // keep chunks from wearing down to a line each
		joined = append(joined, s.chunks[end].lines...)
		end++
	}
	s.chunks = slices.Replace(s.chunks, ca, end, split(joined, s.gen)...)
	s.reindex(ca)
}

// snapshot returns the chunks' lines as they are now, never to be
// written again: the store moves to a new generation, so each chunk is
// copied before its next change.
func (s *lineStore) snapshot() [][]string {
	out := make([][]string, len(s.chunks))
	for i, c := range s.chunks {
		out[i] = c.lines
	}
	s.gen++
	return out
}
