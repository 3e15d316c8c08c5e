package textbuf

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Find returns every match of query in the text, in order, as ranges on
// one line each; matches do not overlap. An empty query or one holding a
// line break finds nothing. Without matchCase, letters match regardless of
// case (rune by rune, so columns stay exact for any script).
func (b *Buffer) Find(query string, matchCase bool) []Range {
	if query == "" || strings.ContainsAny(query, "\n\r") {
		return nil
	}
	if !matchCase {
		return b.findFold([]rune(foldString(query)))
	}
	var out []Range
	for i, line := range b.lines.all() {
		for off := 0; ; {
			j := strings.Index(line[off:], query)
			if j < 0 {
				break
			}
			start := utf8.RuneCountInString(line[:off+j])
			out = append(out, Range{Pos{i, start}, Pos{i, start + utf8.RuneCountInString(query)}})
			off += j + len(query)
		}
	}
	return out
}

// findFold finds q (already folded) in every line, folding each line rune
// by rune.
func (b *Buffer) findFold(q []rune) []Range {
	var out []Range
	var line []rune
	for i, s := range b.lines.all() {
		line = line[:0]
		for _, r := range s {
			line = append(line, unicode.ToLower(r))
		}
		for col := 0; col+len(q) <= len(line); {
			if runesEqual(line[col:col+len(q)], q) {
				out = append(out, Range{Pos{i, col}, Pos{i, col + len(q)}})
				col += len(q)
				continue
			}
			col++
		}
	}
	return out
}

func foldString(s string) string {
	return strings.Map(unicode.ToLower, s)
}

func runesEqual(a, b []rune) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ReplaceAll replaces the text of every range (ordered, not overlapping,
// as Find returns them) with s, as one undo step, and returns how many it
// replaced.
func (b *Buffer) ReplaceAll(ranges []Range, s string) int {
	texts := make([]string, len(ranges))
	for i := range texts {
		texts[i] = s
	}
	return b.ReplaceEach(ranges, texts)
}

// ReplaceEach replaces the text of ranges[i] (ordered, not overlapping)
// with texts[i], as one undo step, and returns how many it changed. The
// edits are made from the last to the first, so the earlier ranges stay
// where they were.
func (b *Buffer) ReplaceEach(ranges []Range, texts []string) int {
	var edits []edit
	for i := len(ranges) - 1; i >= 0; i-- {
		r := b.clampRange(ranges[i].Ordered())
		s := normalize(texts[i])
		removed := b.Slice(r)
		if removed == s {
			continue
		}
		b.apply(r, s)
		edits = append(edits, edit{at: r.Start, removed: removed, inserted: s})
	}
	if len(edits) == 0 {
		return 0
	}
	h := &b.hist
	h.redo = nil
	h.nextID++
	h.undo = append(h.undo, group{id: h.nextID, edits: edits})
	h.open = false
	return len(edits)
}
