package changeset

import (
	"sort"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"trestle/app/linediff"
)

// LineKind says what a diff line is.
type LineKind byte

// The kinds of diff line, as a unified diff marks them.
const (
	Context LineKind = ' '
	Removed LineKind = '-'
	Added   LineKind = '+'
)

// DiffLine is one line of a hunk. Old and New are its 1-based line numbers
// in the base and the new text, 0 where it is absent (Old for an added
// line, New for a removed one).
type DiffLine struct {
	Kind     LineKind
	Text     string // without the newline
	Old, New int
	NoEOL    bool // the line ends its text without a newline
}

// Hunk is one contiguous change of a file, numbered from 1 within its file
// (the number `trestle changes show` prints and `--hunk PATH:N` names).
// OldStart is the first base line it covers (when OldLines is 0, the line
// after which it inserts; 0 at the top); NewStart likewise in the new text.
type Hunk struct {
	N                  int
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []DiffLine
}

// Added and Removed count the hunk's added and removed lines.
func (h Hunk) Added() int   { return h.count(Added) }
func (h Hunk) Removed() int { return h.count(Removed) }

func (h Hunk) count(k LineKind) int {
	n := 0
	for _, l := range h.Lines {
		if l.Kind == k {
			n++
		}
	}
	return n
}

// Hunks returns the hunks of fc, from its base to its new content, with
// DiffContextLines lines of context, grouped as a unified diff groups
// them (changes closer than twice the context share a hunk). It is
// deterministic: the same base and new text always give the same hunks,
// so their numbers name them across processes. It is safe for concurrent
// use.
func Hunks(fc FileChange) []Hunk {
	plans := planHunks(fc.Base, fc.New)
	out := make([]Hunk, len(plans))
	for i, p := range plans {
		out[i] = p.Hunk
	}
	return out
}

// plannedHunk is a hunk with the line edits of the base that make it.
type plannedHunk struct {
	Hunk
	edits []udiff.Edit // byte offsets in the base, at line boundaries
}

// planHunks computes the hunks from base to new.
func planHunks(base, new string) []plannedHunk {
	edits := linediff.Edits(base, new)
	if len(edits) == 0 {
		return nil
	}
	lines, offsets := splitText(base)
	lineAt := func(off int) int { return sort.SearchInts(offsets, off) }
	var out []plannedHunk
	delta := 0 // new line index minus old line index, before the current edit
	for i := 0; i < len(edits); {
		// Group edits whose gap is at most twice the context.
		j, end := i+1, lineAt(edits[i].End)
		for j < len(edits) && lineAt(edits[j].Start) <= end+2*DiffContextLines {
			end = lineAt(edits[j].End)
			j++
		}
		var h plannedHunk
		h.N, h.edits = len(out)+1, edits[i:j]
		delta = h.build(lines, lineAt, delta)
		out = append(out, h)
		i = j
	}
	return out
}

// build fills h's lines from its edits; delta is the new-minus-old line
// offset before h, and the offset after it is returned.
func (h *plannedHunk) build(lines []string, lineAt func(int) int, delta int) int {
	first := lineAt(h.edits[0].Start)
	from := max(0, first-DiffContextLines)
	h.context(lines, from, first, delta)
	at := first
	for _, e := range h.edits {
		start, end := lineAt(e.Start), lineAt(e.End)
		h.context(lines, at, start, delta)
		for k := start; k < end; k++ {
			h.add(Removed, lines[k], k+1, 0)
		}
		added, _ := splitText(e.New)
		for k, l := range added {
			h.add(Added, l, 0, start+delta+k+1)
		}
		delta += len(added) - (end - start)
		at = end
	}
	h.context(lines, at, min(len(lines), at+DiffContextLines), delta)
	h.OldLines, h.NewLines = h.OldLines-h.count(Added), h.NewLines-h.count(Removed)
	h.OldStart, h.NewStart = from+1, from+1+(delta-h.NewLines+h.OldLines)
	if h.OldLines == 0 {
		h.OldStart--
	}
	if h.NewLines == 0 {
		h.NewStart--
	}
	return delta
}

// context adds base lines [from, to) as context.
func (h *plannedHunk) context(lines []string, from, to, delta int) {
	for k := from; k < to; k++ {
		h.add(Context, lines[k], k+1, k+delta+1)
	}
}

// add appends one line; OldLines and NewLines count every line for now.
func (h *plannedHunk) add(kind LineKind, line string, old, new int) {
	text, eol := strings.CutSuffix(line, "\n")
	h.Lines = append(h.Lines, DiffLine{Kind: kind, Text: text, Old: old, New: new, NoEOL: !eol})
	h.OldLines++
	h.NewLines++
}

// splitText splits text into lines, each with its newline (the last
// maybe without), and returns the offset where each line starts followed
// by len(text).
func splitText(text string) ([]string, []int) { return linediff.Split(text) }

// compose returns base with the edits of the hunks accept takes.
func compose(base string, hunks []plannedHunk, accept func(n int) bool) string {
	var b strings.Builder
	b.Grow(len(base))
	at := 0
	for _, h := range hunks {
		if !accept(h.N) {
			continue
		}
		for _, e := range h.edits {
			b.WriteString(base[at:e.Start])
			b.WriteString(e.New)
			at = e.End
		}
	}
	b.WriteString(base[at:])
	return b.String()
}
