package textbuf

import (
	"go/scanner"
	"go/token"
	"slices"
	"strings"
	"unicode/utf8"
)

// Kind is what a highlighted span of Go source is.
type Kind uint8

// The kinds of span; Plain text has no span.
const (
	Plain Kind = iota
	Keyword
	String // string, raw string and rune literals
	Comment
	Number
)

// Span is a highlighted run of one line: rune columns [Start, End).
type Span struct {
	Start, End int32
	Kind       Kind
}

// scanState is what a line starts inside of: only block comments and raw
// strings carry over a line break in Go.
type scanState uint8

const (
	inCode scanState = iota
	inComment
	inRawString
)

// Highlighter holds the Go syntax spans of every line of a text. It is
// updated line by line after each edit: only the lines the edit touched,
// plus following lines while the state they start in (inside a block
// comment or raw string, or not) differs from before. Not safe for
// concurrent use.
type Highlighter struct {
	spans [][]Span
	ends  []scanState // the state at the end of each line
}

// NewHighlighter highlights all n lines, line(i) returning line i.
func NewHighlighter(n int, line func(int) string) *Highlighter {
	h := &Highlighter{spans: make([][]Span, n), ends: make([]scanState, n)}
	var sc lineScanner
	st := inCode
	for i := range n {
		h.spans[i], st = sc.scan(line(i), st)
		h.ends[i] = st
	}
	return h
}

// Spans returns the spans of line i, in order; nil past the end.
func (h *Highlighter) Spans(i int) []Span {
	if i < 0 || i >= len(h.spans) {
		return nil
	}
	return h.spans[i]
}

// Apply re-highlights after change c, with n lines now and line(i)
// returning line i, and returns how many lines it scanned.
func (h *Highlighter) Apply(c Change, n int, line func(int) string) int {
	oldNext := h.ends[c.Line+c.Removed-1] // the old start of the first line after the edit
	h.spans = slices.Replace(h.spans, c.Line, c.Line+c.Removed, make([][]Span, c.Added)...)
	h.ends = slices.Replace(h.ends, c.Line, c.Line+c.Removed, make([]scanState, c.Added)...)
	var sc lineScanner
	scanned := 0
	for i := c.Line; i < n; i++ {
		st := h.startOf(i)
		if i >= c.Line+c.Added {
			if st == oldNext {
				break
			}
			oldNext = h.ends[i]
		}
		h.spans[i], h.ends[i] = sc.scan(line(i), st)
		scanned++
	}
	return scanned
}

func (h *Highlighter) startOf(i int) scanState {
	if i == 0 {
		return inCode
	}
	return h.ends[i-1]
}

// lineScanner scans one line at a time with go/scanner. Its file set is
// renewed now and then so that it does not grow without bound.
type lineScanner struct {
	fset  *token.FileSet
	files int
	s     scanner.Scanner
}

// scan returns the spans of line, which starts in state st, and the state
// it ends in.
func (sc *lineScanner) scan(line string, st scanState) ([]Span, scanState) {
	var spans []Span
	pos := 0
	switch st {
	case inComment:
		i := strings.Index(line, "*/")
		if i < 0 {
			return spanAll(line, Comment), inComment
		}
		pos = i + 2
		spans = append(spans, Span{0, int32(pos), Comment})
	case inRawString:
		i := strings.IndexByte(line, '`')
		if i < 0 {
			return spanAll(line, String), inRawString
		}
		pos = i + 1
		spans = append(spans, Span{0, int32(pos), String})
	}
	spans, st = sc.scanCode(spans, line, pos)
	return toRuneCols(line, spans), st
}

// scanCode appends the spans of line[pos:], in byte offsets of line, and
// returns the state at its end.
func (sc *lineScanner) scanCode(spans []Span, line string, pos int) ([]Span, scanState) {
	rest := line[pos:]
	if strings.TrimSpace(rest) == "" {
		return spans, inCode
	}
	if sc.fset == nil || sc.files > 4096 {
		sc.fset, sc.files = token.NewFileSet(), 0
	}
	sc.files++
	f := sc.fset.AddFile("", -1, len(rest))
	sc.s.Init(f, []byte(rest), func(token.Position, string) {}, scanner.ScanComments)
	st := inCode
	for {
		p, tok, lit := sc.s.Scan()
		if tok == token.EOF {
			return spans, st
		}
		kind := kindOf(tok)
		if kind == Plain {
			continue
		}
		off := f.Offset(p)
		end, open := tokenEnd(rest, off, tok, lit)
		spans = append(spans, Span{int32(pos + off), int32(pos + end), kind})
		switch {
		case open && tok == token.COMMENT:
			st = inComment
		case open:
			st = inRawString
		}
	}
}

// tokenEnd returns the byte offset in src after the token at off, and
// whether it is a block comment or raw string left open at the line's end.
func tokenEnd(src string, off int, tok token.Token, lit string) (int, bool) {
	switch {
	case tok == token.COMMENT && strings.HasPrefix(src[off:], "/*"):
		if i := strings.Index(src[off+2:], "*/"); i >= 0 {
			return off + 2 + i + 2, false
		}
		return len(src), true
	case tok == token.COMMENT:
		return len(src), false
	case tok == token.STRING && src[off] == '`':
		if i := strings.IndexByte(src[off+1:], '`'); i >= 0 {
			return off + 1 + i + 1, false
		}
		return len(src), true
	case tok.IsKeyword():
		return off + len(tok.String()), false
	}
	return min(off+len(lit), len(src)), false
}

func kindOf(tok token.Token) Kind {
	switch {
	case tok.IsKeyword():
		return Keyword
	case tok == token.STRING || tok == token.CHAR:
		return String
	case tok == token.COMMENT:
		return Comment
	case tok == token.INT || tok == token.FLOAT || tok == token.IMAG:
		return Number
	}
	return Plain
}

func spanAll(line string, k Kind) []Span {
	if line == "" {
		return nil
	}
	return []Span{{0, int32(utf8.RuneCountInString(line)), k}}
}

// toRuneCols turns the byte offsets of spans into rune columns of line.
func toRuneCols(line string, spans []Span) []Span {
	if len(spans) == 0 || isASCII(line) {
		return spans
	}
	for i := range spans {
		spans[i].Start = int32(utf8.RuneCountInString(line[:spans[i].Start]))
		spans[i].End = int32(utf8.RuneCountInString(line[:spans[i].End]))
	}
	return spans
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
