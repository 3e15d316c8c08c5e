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
// package has no unbounded mode exported; znkr.io/diff (Myers with
// histogram-like preprocessing and a cost bound) is not served by the Go
// module proxy here.
//
// Myers takes time (N+M)·D for D edited lines, quadratic when a large
// file is rewritten. Three steps keep that bounded. The common start and
// end are matched first and the lines between named by ints once (one
// map look-up a line), and lines found on only one side
// are edits whatever the diff, so they are left out before the search (a
// file rewritten with new lines costs nothing). When what is left would
// still need more than maxDiffWork steps, a cheap bounded search
// (myersSteps) says so first, and the diff is anchored instead, as
// patience diff is, on the lines found once on each side (the longest
// run of them in the same order on both): what lies between two anchors
// is diffed the same way, minimally when that is cheap (maxGapWork),
// else anchored again on the lines unique within it. A stretch with no
// such line (two unrelated texts of the same few common lines, "}", "",
// "\treturn nil") gets go-udiff's bounded diff, which is coarse but
// correct. Every bound counts steps, not time, so the hunks do not
// depend on the machine's load. The anchoring and the bounded search are
// the only hand-written parts: no library here offers either with a
// bound in steps (sergi/go-diff's only bound is a timeout).
//
// Anchoring is not minimal (a function moved is removed and added whole,
// where a minimal diff would keep its "}" and "" lines), but on real
// code it is close: over the 457 Go files that changed in
// golang.org/x/tools from v0.23.0 to v0.52.0 it changed 0.2% more lines
// than the minimal diff (go-udiff's, 60% more), and the minimal diff of
// each needed at most 210,000 steps, under the bound.

// maxDiffWork bounds the steps of the minimal line diff of a whole file
// (see myersSteps), on the lines left after the common ends and the
// one-sided lines are set aside: a few milliseconds of checking. Real
// edits need few (see above; a 100,000-line file with 1,000 scattered
// one-line changes, 300,000); two unrelated 10,000-line texts made of the
// same few common lines would need about 60 million and, with no line to
// anchor on, get go-udiff's diff.
// The bounded searches between anchors share a second bound of the same
// size, after which a large stretch between anchors gets go-udiff's diff.
const maxDiffWork = 500_000

// maxGapWork bounds the minimal diff of what lies between two anchors:
// with at most 256 shared lines on the two sides together ((n/2)² steps
// at most) it is diffed without a bounded search (all such gaps of a file
// together take at most 64 steps a line), and a larger one is diffed
// minimally if its search ends within this many steps.
const maxGapWork = 16 * 1024

// Edits returns the line edits from base to new (byte offsets in
// base, at line boundaries, in order): a minimal line diff when that
// costs at most maxDiffWork steps, else one anchored on the lines unique
// to both sides (see above). It is deterministic and safe for concurrent
// use.
func Edits(base, new string) []udiff.Edit {
	return bounded(base, new, maxDiffWork, maxDiffWork, maxGapWork)
}

// bounded is Edits with the bounds given: work for the exact diff of the
// whole, gapsWork for all the bounded searches between anchors together
// and gapWork for each of those.
func bounded(base, new string, work, gapsWork, gapWork int) []udiff.Edit {
	if base == new {
		return nil
	}
	d, ok := newDiffer(base, new)
	if !ok {
		return udiff.Lines(base, new)
	}
	d.gapWork, d.gapLeft = gapWork, gapsWork
	i1, j1 := len(d.a)-d.suf, len(d.b)-d.suf
	if !d.exact(d.x, i1, d.y, j1, work, work) {
		d.anchored(d.x, i1, d.y, j1)
	}
	return d.edits // the common end is matched
}

// exactEdits is the minimal line diff, or false when it would take
// more than work steps.
func exactEdits(base, new string, work int) ([]udiff.Edit, bool) {
	d, ok := newDiffer(base, new)
	if !ok || !d.exact(d.x, len(d.a)-d.suf, d.y, len(d.b)-d.suf, work, work) {
		return nil, false
	}
	return d.edits, true
}

// differ holds the two texts as lines, each line between their common
// start and end named by an int (the same text, the same int), and the
// edits made so far.
type differ struct {
	base, new      string
	aOff, bOff     []int   // where each line starts, then the text's length
	a, b           []int32 // the lines' names (-1 in the common start and end)
	suf            int     // the lines of the common end
	cntA, cntB     []int32 // per name, its count in the range being looked at
	x, y           int     // the next line of a and b not yet matched or edited
	gapWork        int     // the bound of the exact diff between anchors
	gapLeft        int     // the steps left for the bounded searches between anchors
	checked        int     // the steps the bounded searches took
	edits          []udiff.Edit
	dmp            *diffmatchpatch.DiffMatchPatch
	runesA, runesB []rune // scratch for exact
	idxA, idxB     []int
}

// maxNames is how many distinct lines the runes given to go-diff can
// name (every rune but the surrogates, which a string cannot hold).
const maxNames = utf8.MaxRune + 1 - 0x800

// newDiffer splits base and new into lines, matches their common start
// and end, and names the lines between. It is false when there are more
// distinct lines than runes to name them.
func newDiffer(base, new string) (*differ, bool) {
	d := &differ{base: base, new: new, aOff: lineOffsets(base), bOff: lineOffsets(new)}
	na, nb := len(d.aOff)-1, len(d.bOff)-1
	lineA := func(i int) string { return base[d.aOff[i]:d.aOff[i+1]] }
	lineB := func(j int) string { return new[d.bOff[j]:d.bOff[j+1]] }
	pre, suf := 0, 0
	for pre < na && pre < nb && lineA(pre) == lineB(pre) {
		pre++
	}
	for suf < na-pre && suf < nb-pre && lineA(na-1-suf) == lineB(nb-1-suf) {
		suf++
	}
	d.x, d.y, d.suf = pre, pre, suf
	names := make(map[string]int32, na-pre-suf)
	name := func(line func(int) string, n int) []int32 {
		out := make([]int32, n)
		for i := range out {
			if i < pre || i >= n-suf {
				out[i] = -1
				continue
			}
			l := line(i)
			id, ok := names[l]
			if !ok {
				id = int32(len(names))
				names[l] = id
			}
			out[i] = id
		}
		return out
	}
	d.a, d.b = name(lineA, na), name(lineB, nb)
	if len(names) > maxNames {
		return nil, false
	}
	d.cntA, d.cntB = make([]int32, len(names)), make([]int32, len(names))
	d.dmp = diffmatchpatch.New()
	d.dmp.DiffTimeout = 0 // no cut-off: see above
	return d, true
}

// match records that line i of a is line j of b: everything between the
// last match and this one is one edit.
func (d *differ) match(i, j int) {
	d.flush(i, j)
	d.x, d.y = i+1, j+1
}

// flush records the edit from the next unmatched lines to lines i and j
// (exclusive), if there is one.
func (d *differ) flush(i, j int) {
	if i > d.x || j > d.y {
		d.edits = append(d.edits, udiff.Edit{Start: d.aOff[d.x], End: d.aOff[i], New: d.new[d.bOff[d.y]:d.bOff[j]]})
	}
	d.x, d.y = i, j
}

// count adds add to the counts of the names in a[i0:i1] and b[j0:j1].
func (d *differ) count(i0, i1, j0, j1 int, add int32) {
	for _, n := range d.a[i0:i1] {
		d.cntA[n] += add
	}
	for _, n := range d.b[j0:j1] {
		d.cntB[n] += add
	}
}

// ends is the number of lines a[i0:i1] and b[j0:j1] have in common at
// their start and at their end.
func (d *differ) ends(i0, i1, j0, j1 int) (pre, suf int) {
	for i0+pre < i1 && j0+pre < j1 && d.a[i0+pre] == d.b[j0+pre] {
		pre++
	}
	for i0+pre < i1-suf && j0+pre < j1-suf && d.a[i1-1-suf] == d.b[j1-1-suf] {
		suf++
	}
	return pre, suf
}

// exact diffs a[i0:i1] against b[j0:j1] minimally and records the
// edits, unless that would take more than work steps (then it records
// nothing and is false); a diff of at most free steps ((n/2)² for n
// lines to diff) needs no bounded search first. The lines before i0 and
// j0 are done.
func (d *differ) exact(i0, i1, j0, j1, free, work int) bool {
	pre, suf := d.ends(i0, i1, j0, j1)
	i0, j0, i1, j1 = i0+pre, j0+pre, i1-suf, j1-suf
	// Any longest common subsequence is made of lines both sides have,
	// so a minimal diff of those is one of the whole.
	d.count(i0, i1, j0, j1, 1)
	if d.runesA == nil { // scratch for the largest range, the first
		d.runesA, d.idxA = make([]rune, 0, i1-i0), make([]int, 0, i1-i0)
		d.runesB, d.idxB = make([]rune, 0, j1-j0), make([]int, 0, j1-j0)
	}
	ra, ia := d.shared(d.a, i0, i1, d.cntB, d.runesA[:0], d.idxA[:0])
	rb, ib := d.shared(d.b, j0, j1, d.cntA, d.runesB[:0], d.idxB[:0])
	d.count(i0, i1, j0, j1, -1)
	d.runesA, d.idxA, d.runesB, d.idxB = ra, ia, rb, ib
	if n := len(ra) + len(rb); n*n/4 > free {
		steps, ok := myersSteps(ra, rb, work)
		d.checked += steps
		if !ok {
			return false
		}
	}
	d.x, d.y = i0, j0 // the common start is matched
	i, j := 0, 0      // in ra and rb
	for _, df := range d.dmp.DiffMainRunes(ra, rb, false) {
		k := utf8.RuneCountInString(df.Text)
		switch df.Type {
		case diffmatchpatch.DiffEqual:
			for range k {
				d.match(ia[i], ib[j])
				i, j = i+1, j+1
			}
		case diffmatchpatch.DiffDelete:
			i += k
		case diffmatchpatch.DiffInsert:
			j += k
		}
	}
	d.flush(i1, j1)
	d.x, d.y = i1+suf, j1+suf // the common end is matched
	return true
}

// shared is the lines of lines[i0:i1] whose count on the other side is
// not zero, as runes naming them (appended to rs), and their indices
// (appended to is).
func (d *differ) shared(lines []int32, i0, i1 int, other []int32, rs []rune, is []int) ([]rune, []int) {
	for i := i0; i < i1; i++ {
		if n := lines[i]; other[n] != 0 {
			r := rune(n) + 1
			if r >= 0xD800 { // skip the surrogates
				r += 0x800
			}
			rs, is = append(rs, r), append(is, i)
		}
	}
	return rs, is
}

// anchored diffs a[i0:i1] against b[j0:j1], past the bound of the exact
// diff: it matches the longest run, in the same order on both sides, of
// the lines found once in each, and diffs what lies between them with
// gap. With no such line it takes go-udiff's diff of the range. The lines
// before i0 and j0 are done.
func (d *differ) anchored(i0, i1, j0, j1 int) {
	d.count(i0, i1, j0, j1, 1)
	var pairs [][2]int // lines found once on each side, in a's order
	pos := map[int32]int{}
	for j := j0; j < j1; j++ {
		if n := d.b[j]; d.cntB[n] == 1 && d.cntA[n] == 1 {
			pos[n] = j
		}
	}
	if len(pos) > 0 {
		for i := i0; i < i1; i++ {
			if j, ok := pos[d.a[i]]; ok {
				pairs = append(pairs, [2]int{i, j})
			}
		}
	}
	d.count(i0, i1, j0, j1, -1)
	anchors := increasing(pairs)
	if len(anchors) == 0 {
		d.coarse(i0, i1, j0, j1)
		return
	}
	for _, p := range anchors {
		d.gap(d.x, p[0], d.y, p[1])
		d.match(p[0], p[1])
	}
	d.gap(d.x, i1, d.y, j1)
}

// coarse records go-udiff's diff of a[i0:i1] against b[j0:j1]. The
// lines before i0 and j0 are done.
func (d *differ) coarse(i0, i1, j0, j1 int) {
	for _, e := range udiff.Lines(d.base[d.aOff[i0]:d.aOff[i1]], d.new[d.bOff[j0]:d.bOff[j1]]) {
		e.Start, e.End = e.Start+d.aOff[i0], e.End+d.aOff[i0]
		d.edits = append(d.edits, e)
	}
	d.x, d.y = i1, j1
}

// gap diffs the lines between two anchors: minimally when that is cheap
// (gapWork), anchored again when not. The bounded searches of all the
// gaps share one bound (gapLeft): once it is spent, a gap that is not
// small gets go-udiff's diff, so the bounded searches of a file take at
// most twice maxDiffWork steps whatever its lines.
func (d *differ) gap(i0, i1, j0, j1 int) {
	if i0 == i1 || j0 == j1 {
		d.flush(i1, j1)
		return
	}
	before := d.checked
	ok := d.exact(i0, i1, j0, j1, d.gapWork, min(d.gapWork, d.gapLeft))
	d.gapLeft -= d.checked - before
	switch {
	case ok:
	case d.gapLeft > 0:
		d.anchored(i0, i1, j0, j1)
	default:
		d.coarse(i0, i1, j0, j1)
	}
}

// Split splits text into lines, each with its newline (the last maybe
// without), and returns the offset where each line starts followed by
// len(text).
func Split(text string) ([]string, []int) {
	offsets := lineOffsets(text)
	if text == "" {
		return nil, offsets
	}
	lines := make([]string, len(offsets)-1)
	for i := range lines {
		lines[i] = text[offsets[i]:offsets[i+1]]
	}
	return lines, offsets
}

// lineOffsets is where each line of text starts (as Split splits it),
// followed by len(text).
func lineOffsets(text string) []int {
	if text == "" {
		return []int{0}
	}
	offsets := make([]int, 1, strings.Count(text, "\n")+2)
	for start := 0; start < len(text); {
		i := strings.IndexByte(text[start:], '\n')
		end := len(text)
		if i >= 0 {
			end = start + i + 1
		}
		offsets = append(offsets, end)
		start = end
	}
	return offsets
}
