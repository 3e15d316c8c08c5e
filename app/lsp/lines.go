package lsp

import (
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// lines is a text with the byte offset where each of its lines starts, so
// that finding a line is a lookup, not a scan from the start of the text:
// an outline of a file with 25,000 declarations converts 50,000 ranges,
// and a scan per range made that quadratic in the file's size. It is built
// once per text and shared by every request that reads the same text;
// immutable once built, so safe for concurrent use.
type lines struct {
	text   string
	starts []int // starts[i] is the offset of 0-based line i; starts[0] == 0
	// outline is gopls's documentSymbol answer for this text, converted:
	// it depends on the text alone (gopls parses, it does not type-check,
	// for an outline), so a text asked about again is not asked again. A
	// large file's outline is megabytes of JSON.
	outline atomic.Pointer[outline]
}

// outline is a file's outline as DocumentSymbols returns it.
type outline struct {
	rel  string
	syms []Symbol
}

// newLines indexes text's lines.
func newLines(text string) *lines {
	starts := make([]int, 1, strings.Count(text, "\n")+1)
	for off := 0; ; {
		nl := strings.IndexByte(text[off:], '\n')
		if nl < 0 {
			break
		}
		off += nl + 1
		starts = append(starts, off)
	}
	return &lines{text: text, starts: starts}
}

// count is the number of lines (a text ending in a newline has an empty
// last line after it).
func (l *lines) count() int { return len(l.starts) }

// line is the text of 0-based line n without its newline (and a \r before
// it); "" past the end.
func (l *lines) line(n int) string {
	if n < 0 || n >= len(l.starts) {
		return ""
	}
	end := len(l.text)
	if n+1 < len(l.starts) {
		end = l.starts[n+1] - 1
	}
	return strings.TrimSuffix(l.text[l.starts[n]:end], "\r")
}

// lineOf is the 0-based line that byte offset off is on.
func (l *lines) lineOf(off int) int {
	return sort.SearchInts(l.starts, off+1) - 1
}

// diskLines keeps the indexes of files read from disk (files the editor
// does not hold), so that the next request that reads the same text reuses
// its index: a file is read again every time (it may have changed), but
// indexed only when its text did. Safe for concurrent use.
type diskLines struct {
	mu    sync.Mutex
	byAbs map[string]*lines
	order []string // oldest first
}

// maxDiskLines bounds how many disk texts stay indexed: the files a few
// answers name (a references answer names many, each converted once per
// answer anyway).
const maxDiskLines = 32

// get is the index of abs's text read as data, reused when abs was
// indexed with the same text.
func (d *diskLines) get(abs string, data []byte) *lines {
	d.mu.Lock()
	if l := d.byAbs[abs]; l != nil && l.text == string(data) {
		d.mu.Unlock()
		return l
	}
	d.mu.Unlock()
	l := newLines(string(data))
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.byAbs == nil {
		d.byAbs = map[string]*lines{}
	}
	if _, ok := d.byAbs[abs]; !ok {
		d.order = append(d.order, abs)
		if len(d.order) > maxDiskLines {
			delete(d.byAbs, d.order[0])
			d.order = d.order[1:]
		}
	}
	d.byAbs[abs] = l
	return l
}
