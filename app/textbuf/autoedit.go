package textbuf

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Typed is what a keystroke becomes once the editor's helpers have had
// their say: the text to put over Replace, and where the caret goes.
type Typed struct {
	Replace Range
	Text    string
	Caret   Pos
}

var (
	closerOf = map[rune]rune{'(': ')', '[': ']', '{': '}', '"': '"', '\'': '\'', '`': '`'}
	isCloser = map[rune]bool{')': true, ']': true, '}': true}
)

// TypeRune is typing r over sel as a code editor does: an opening bracket
// or quote also types its closer when what follows is space, the end of
// the line or a closer (with a one-line selection, the pair wraps it);
// typing a closer or quote that is already next steps over it; a } typed
// first on a line outdents it one step.
func (b *Buffer) TypeRune(sel Range, r rune) Typed {
	sel = b.clampRange(sel.Ordered())
	plain := Typed{Replace: sel, Text: string(r), Caret: endOf(sel.Start, string(r))}
	closer, opens := closerOf[r]
	if !sel.Empty() {
		if !opens || sel.Start.Line != sel.End.Line {
			return plain
		}
		text := string(r) + b.Slice(sel) + string(closer)
		return Typed{Replace: sel, Text: text, Caret: endOf(sel.Start, text)}
	}
	p := sel.Start
	line := []rune(b.Line(p.Line))
	next, prev := runeAt(line, p.Col), runeAt(line, p.Col-1)
	switch {
	case (isCloser[r] || r == '"' || r == '\'' || r == '`') && next == r:
		return Typed{Replace: Range{Start: p, End: p}, Caret: Pos{Line: p.Line, Col: p.Col + 1}}
	case r == '}' && strings.TrimSpace(string(line[:p.Col])) == "":
		indent := outdent(string(line[:p.Col]))
		text := indent + "}"
		start := Pos{Line: p.Line}
		return Typed{Replace: Range{Start: start, End: p}, Text: text, Caret: Pos{Line: p.Line, Col: utf8.RuneCountInString(text)}}
	case !opens || !(next == 0 || unicode.IsSpace(next) || isCloser[next] || next == ',' || next == ';'):
		return plain
	case r == closer && (prev == '\\' || unicode.IsLetter(prev) || unicode.IsDigit(prev) || prev == r):
		return plain // it's, "\"", a doubled quote: no pair
	}
	text := string(r) + string(closer)
	return Typed{Replace: sel, Text: text, Caret: Pos{Line: p.Line, Col: p.Col + 1}}
}

// Newline is Enter over sel: a line break and the caret line's indentation
// (no more of it than lies before the caret), one step deeper after an
// opening bracket or a case or default label; between a bracket pair, the
// closer goes to a line of its own at the outer indentation.
func (b *Buffer) Newline(sel Range) Typed {
	sel = b.clampRange(sel.Ordered())
	start := []rune(b.Line(sel.Start.Line))
	end := []rune(b.Line(sel.End.Line))
	before := string(start[:sel.Start.Col])
	indent := []rune(LeadingSpace(string(start)))
	indent = indent[:min(len(indent), sel.Start.Col)]
	outer := string(indent)
	trimmed := strings.TrimRight(before, " \t")
	last, _ := utf8.DecodeLastRuneInString(trimmed)
	next := runeAt(end, sel.End.Col)
	inner := outer
	switch {
	case last == '{' || last == '(' || last == '[':
		inner = outer + step(outer)
	case last == ':' && isLabel(strings.TrimSpace(trimmed)):
		inner = outer + step(outer)
	}
	text := "\n" + inner
	caret := Pos{Line: sel.Start.Line + 1, Col: utf8.RuneCountInString(inner)}
	if last != 0 && closerOf[last] == next && isCloser[next] {
		text += "\n" + outer
	}
	return Typed{Replace: sel, Text: text, Caret: caret}
}

// PairAround reports the empty bracket or quote pair around p, "(|)", that
// one Backspace deletes whole.
func (b *Buffer) PairAround(p Pos) (Range, bool) {
	p = b.Clamp(p)
	line := []rune(b.Line(p.Line))
	open, close := runeAt(line, p.Col-1), runeAt(line, p.Col)
	if c, ok := closerOf[open]; ok && c == close && open != 0 {
		return Range{Start: Pos{Line: p.Line, Col: p.Col - 1}, End: Pos{Line: p.Line, Col: p.Col + 1}}, true
	}
	return Range{}, false
}

func isLabel(s string) bool {
	return strings.HasPrefix(s, "case ") || s == "default:" || strings.HasPrefix(s, "default :")
}

// step is one level of indentation in the style of indent: four spaces
// where the line is indented with spaces, else a tab (gofmt's).
func step(indent string) string {
	if indent != "" && !strings.Contains(indent, "\t") {
		return "    "
	}
	return "\t"
}

// outdent removes one level from indent.
func outdent(indent string) string {
	switch {
	case strings.HasSuffix(indent, "\t"):
		return indent[:len(indent)-1]
	case strings.HasSuffix(indent, "    "):
		return indent[:len(indent)-4]
	}
	return strings.TrimRight(indent, " ")
}

// runeAt is line[i], or 0 outside it.
func runeAt(line []rune, i int) rune {
	if i < 0 || i >= len(line) {
		return 0
	}
	return line[i]
}

// maxBracketLines bounds how far MatchBracket looks for a partner: a
// screenful of code many times over, little enough for every caret move.
const maxBracketLines = 2000

var openerOf = map[rune]rune{')': '(', ']': '[', '}': '{'}

// MatchBracket finds the bracket at the caret, or just before it, and its
// partner, skipping brackets for which code reports false (inside strings
// and comments: the highlighter knows). ok is false when the caret is at
// no bracket or its partner is more than maxBracketLines away.
func (b *Buffer) MatchBracket(p Pos, code func(line, col int) bool) (at, partner Pos, ok bool) {
	p = b.Clamp(p)
	line := []rune(b.Line(p.Line))
	for _, col := range []int{p.Col, p.Col - 1} {
		r := runeAt(line, col)
		if r == 0 || !code(p.Line, col) {
			continue
		}
		at = Pos{Line: p.Line, Col: col}
		if c, opens := closerOf[r]; opens && isCloser[c] {
			partner, ok = b.scanBracket(at, r, c, 1, code)
			return at, partner, ok
		}
		if o, closes := openerOf[r]; closes {
			partner, ok = b.scanBracket(at, r, o, -1, code)
			return at, partner, ok
		}
	}
	return Pos{}, Pos{}, false
}

// scanBracket walks from the bracket self at `from` in direction dir
// (1 forward, -1 back) to the other that balances it.
func (b *Buffer) scanBracket(from Pos, self, other rune, dir int, code func(line, col int) bool) (Pos, bool) {
	depth := 0
	for i, n := from.Line, 0; i >= 0 && i < b.lines.n && n <= maxBracketLines; i, n = i+dir, n+1 {
		line := []rune(b.Line(i))
		start, end := 0, len(line)
		if i == from.Line {
			start = from.Col
		}
		if dir < 0 {
			start, end = end-1, -1
			if i == from.Line {
				start = from.Col
			}
		}
		for col := start; col != end; col += dir {
			r := line[col]
			if (r != self && r != other) || !code(i, col) {
				continue
			}
			if r == self {
				depth++
			} else if depth--; depth == 0 {
				return Pos{Line: i, Col: col}, true
			}
		}
	}
	return Pos{}, false
}
