package linediff

import (
	"strings"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Why this line diff.
//
// go-udiff's line diff (udiff.Lines) bounds its search (100 edits deep)
// and past that gives up into one large edit: on a 10,000-line file with
// 100 scattered one-line changes it made 51 hunks, one covering 5,000
// lines, so per-hunk review (and the editor's git gutter) was coarse
// just where it matters. We use
// github.com/sergi/go-diff instead: it is maintained, its line mode
// (lines as runes, then DiffMainRunes) is Myers' bisection in linear
// memory, and with DiffTimeout 0 it has no cut-off and returns a minimal
// diff (with a timeout it would cut off by the clock, and the hunks
// would then depend on the machine's load, while their numbers must name
// them across processes). go-difflib is unmaintained and, like Python's
// difflib, not minimal (it drops popular lines as junk); go-udiff's lcs
// package has no unbounded mode exported.
//
// Myers takes time (N+M)·D for D edited lines, quadratic when a large
// file is rewritten. Two steps keep that bounded: lines found on only one
// side are edits whatever the diff, so they are left out before the
// search (a file rewritten with new lines costs nothing); and when what
// is left would still need more than maxDiffWork steps, a cheap bounded
// search (myersWithin) says so first and Edits falls back to go-udiff's
// bounded diff, which is coarse but correct, for that file.

// maxDiffWork bounds the steps of the exact line diff (see myersWithin)
// on the lines left after the common ends and the one-sided lines are set
// aside: about 25 ms of checking on the development VM. Scattered changes
// need few (a 100,000-line file with 1,000 one-line changes, half a
// million); two unrelated 10,000-line texts made of the same few common
// lines ("}", "", "\treturn nil") need about 60 million (the exact diff
// would take 270 ms, ten times that at 30,000 lines), and fall back.
const maxDiffWork = 8_000_000

// Edits returns the line edits from base to new (byte offsets in
// base, at line boundaries, in order): a minimal line diff, or go-udiff's
// bounded one when the exact diff would cost more than maxDiffWork. It is
// deterministic and safe for concurrent use.
func Edits(base, new string) []udiff.Edit {
	if base == new {
		return nil
	}
	edits, ok := exactEdits(base, new, maxDiffWork)
	if !ok {
		return udiff.Lines(base, new)
	}
	return edits
}

// exactEdits is the minimal line diff, or false when it would take
// more than work steps.
func exactEdits(base, new string, work int) ([]udiff.Edit, bool) {
	a, aOff := Split(base)
	b, _ := Split(new)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ra, ia, rb, ib, ok := sharedLines(a[pre:len(a)-suf], b[pre:len(b)-suf])
	if !ok {
		return nil, false
	}
	n := len(ra) + len(rb)
	if n*n/4 > work && !myersWithin(ra, rb, work) {
		return nil, false
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // no cut-off: see above
	// Lines matched by the diff of the shared lines, as (base, new) pairs
	// of indices in a and b; everything between two matches is one edit.
	var edits []udiff.Edit
	x, y := pre, pre // the next unmatched line of a and b
	match := func(i, j int) {
		if i > x || j > y {
			edits = append(edits, udiff.Edit{Start: aOff[x], End: aOff[i], New: join(b[y:j])})
		}
		x, y = i+1, j+1
	}
	i, j := 0, 0 // in ra and rb
	for _, d := range dmp.DiffMainRunes(ra, rb, false) {
		k := utf8.RuneCountInString(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			for range k {
				match(pre+ia[i], pre+ib[j])
				i, j = i+1, j+1
			}
		case diffmatchpatch.DiffDelete:
			i += k
		case diffmatchpatch.DiffInsert:
			j += k
		}
	}
	if end, endB := len(a)-suf, len(b)-suf; x < end || y < endB {
		edits = append(edits, udiff.Edit{Start: aOff[x], End: aOff[end], New: join(b[y:endB])})
	}
	return edits, true
}

// sharedLines keeps the lines of a and b that the other also has, each
// as a rune naming its text, with their indices in a and b. Any longest
// common subsequence of a and b is made of such lines, so a minimal diff
// of what is kept is one of a and b. It is false when there are more
// distinct lines than runes to name them.
func sharedLines(a, b []string) (ra []rune, ia []int, rb []rune, ib []int, ok bool) {
	const inA, inB = 1, 2
	seen := make(map[string]int, len(a))
	for _, l := range a {
		seen[l] |= inA
	}
	for _, l := range b {
		seen[l] |= inB
	}
	names := map[string]rune{}
	next := rune(1)
	keep := func(lines []string) ([]rune, []int) {
		var rs []rune
		var is []int
		for i, l := range lines {
			if seen[l] != inA|inB {
				continue
			}
			r, named := names[l]
			if !named {
				r, next = next, next+1
				if next == 0xD800 { // runes name lines; skip the surrogates
					next = 0xE000
				}
				names[l] = r
			}
			rs, is = append(rs, r), append(is, i)
		}
		return rs, is
	}
	ra, ia = keep(a)
	rb, ib = keep(b)
	return ra, ia, rb, ib, next <= utf8.MaxRune
}

// myersWithin reports whether Myers' greedy forward search finds the
// distance from a to b within work steps (a step is a diagonal tried or
// a line compared): it takes about as many as the diff itself, which
// bisects the same graph from both ends, and stops at the bound. It
// counts steps, not time, so the answer is the same on any machine.
func myersWithin(a, b []rune, work int) bool {
	n, m := len(a), len(b)
	off := n + m + 1
	v := make([]int, 2*off+1) // furthest x on each diagonal k = x-y
	for d := 0; d <= n+m; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
				work--
			}
			v[off+k] = x
			if x >= n && y >= m {
				return true
			}
			if work--; work < 0 {
				return false
			}
		}
	}
	return true
}

// Split splits text into lines, each with its newline (the last maybe
// without), and returns the offset where each line starts followed by
// len(text).
func Split(text string) ([]string, []int) {
	var lines []string
	offsets := []int{0}
	for start := 0; start < len(text); {
		i := strings.IndexByte(text[start:], '\n')
		end := len(text)
		if i >= 0 {
			end = start + i + 1
		}
		lines = append(lines, text[start:end])
		offsets = append(offsets, end)
		start = end
	}
	return lines, offsets
}

// join is lines as one text.
func join(lines []string) string {
	size := 0
	for _, l := range lines {
		size += len(l)
	}
	b := make([]byte, 0, size)
	for _, l := range lines {
		b = append(b, l...)
	}
	return string(b)
}
