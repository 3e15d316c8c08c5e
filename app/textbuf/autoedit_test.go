package textbuf

import (
	"strings"
	"testing"
)

// apply runs a Typed on b and returns the text with the caret marked |.
func applyTyped(b *Buffer, t Typed) string {
	b.Replace(t.Replace, t.Text)
	lines := strings.Split(b.Text(), "\n")
	line := []rune(lines[t.Caret.Line])
	lines[t.Caret.Line] = string(line[:t.Caret.Col]) + "|" + string(line[t.Caret.Col:])
	out := lines[0]
	for _, l := range lines[1:] {
		out += "\n" + l
	}
	return out
}

// at parses "a|b" into the text and the caret position.
func at(s string) (string, Pos) {
	var p Pos
	line, col := 0, 0
	out := []rune{}
	for _, r := range s {
		switch {
		case r == '|':
			p = Pos{Line: line, Col: col}
			continue
		case r == '\n':
			line, col = line+1, 0
		default:
			col++
		}
		out = append(out, r)
	}
	return string(out), p
}

func TestTypeRune(t *testing.T) {
	tests := []struct {
		name, before string
		r            rune
		want         string
	}{
		{"paren pairs at the end", "f|", '(', "f(|)"},
		{"brace pairs before space", "if x | y", '{', "if x {|} y"},
		{"no pair before a word", "|x", '(', "(|x"},
		{"closer steps over", "f(|)", ')', "f()|"},
		{"closer types where none is next", "f(x|", ')', "f(x)|"},
		{"quote pairs", "x := |", '"', "x := \"|\""},
		{"quote steps over", "\"ab|\"", '"', "\"ab\"|"},
		{"no pair after a letter", "it|", '\'', "it'|"},
		{"no pair after a backslash", "\"\\|", '"', "\"\\\"|"},
		{"} outdents a blank line", "if x {\n\t\t|", '}', "if x {\n\t}|"},
		{"} outdents spaces", "    |", '}', "}|"},
		{"} after text does not outdent", "\tx|", '}', "\tx}|"},
		{"plain rune", "a|", 'b', "ab|"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, p := at(tt.before)
			b := New(text)
			if got := applyTyped(b, b.TypeRune(Range{Start: p, End: p}, tt.r)); got != tt.want {
				t.Errorf("typing %q in %q = %q, want %q", tt.r, tt.before, got, tt.want)
			}
		})
	}
}

func TestTypeRuneWrapsASelection(t *testing.T) {
	b := New("x := a + b")
	sel := Range{Start: Pos{Col: 5}, End: Pos{Col: 10}}
	if got := applyTyped(b, b.TypeRune(sel, '(')); got != "x := (a + b)|" {
		t.Errorf("( over a selection = %q", got)
	}
	b = New("ab\ncd")
	sel = Range{Start: Pos{Col: 1}, End: Pos{Line: 1, Col: 1}}
	if got := applyTyped(b, b.TypeRune(sel, '(')); got != "a(|d" {
		t.Errorf("( over a two-line selection = %q, want it replaced", got)
	}
}

func TestNewline(t *testing.T) {
	tests := []struct{ name, before, want string }{
		{"keeps the indent", "\tx := 1|", "\tx := 1\n\t|"},
		{"deeper after {", "func f() {|", "func f() {\n\t|"},
		{"between braces", "func f() {|}", "func f() {\n\t|\n}"},
		{"between parens, indented", "\tf(|)", "\tf(\n\t\t|\n\t)"},
		{"after a case label", "\tcase 1:|", "\tcase 1:\n\t\t|"},
		{"spaces stay spaces", "    if x {|", "    if x {\n        |"},
		{"not past the caret's column", "\t\t|x", "\t\t\n\t\t|x"},
		{"a colon that is no label", "\tx := m[a:|", "\tx := m[a:\n\t|"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, p := at(tt.before)
			b := New(text)
			if got := applyTyped(b, b.Newline(Range{Start: p, End: p})); got != tt.want {
				t.Errorf("Enter in %q = %q, want %q", tt.before, got, tt.want)
			}
		})
	}
}

func TestPairAround(t *testing.T) {
	for _, tt := range []struct {
		text string
		ok   bool
	}{{"f(|)", true}, {"\"|\"", true}, {"f(|x)", false}, {"|", false}, {"{|]", false}} {
		text, p := at(tt.text)
		if _, ok := New(text).PairAround(p); ok != tt.ok {
			t.Errorf("PairAround(%q) = %v, want %v", tt.text, ok, tt.ok)
		}
	}
}

func TestMatchBracket(t *testing.T) {
	const src = "func f(a []int) {\n\tif x { s := \"}\" }\n}"
	b := New(src)
	code := func(line, col int) bool { // the string "}" on line 2 is no code
		return !(line == 1 && col >= 13 && col <= 15)
	}
	tests := []struct {
		name          string
		at            Pos
		want, partner Pos
		ok            bool
	}{
		{"on the opening brace of f", Pos{0, 16}, Pos{0, 16}, Pos{2, 0}, true},
		{"after the closing brace", Pos{2, 1}, Pos{2, 0}, Pos{0, 16}, true},
		{"a paren", Pos{0, 6}, Pos{0, 6}, Pos{0, 14}, true},
		{"brackets of a slice", Pos{0, 10}, Pos{0, 10}, Pos{0, 9}, true},
		{"the if's braces skip the string", Pos{1, 6}, Pos{1, 6}, Pos{1, 17}, true},
		{"not at a bracket", Pos{1, 2}, Pos{}, Pos{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at, partner, ok := b.MatchBracket(tt.at, code)
			if ok != tt.ok || ok && (at != tt.want || partner != tt.partner) {
				t.Errorf("MatchBracket(%v) = %v, %v, %v; want %v, %v, %v", tt.at, at, partner, ok, tt.want, tt.partner, tt.ok)
			}
		})
	}
	if _, _, ok := New("("+strings.Repeat("\n", maxBracketLines+5)+")").MatchBracket(Pos{}, func(int, int) bool { return true }); ok {
		t.Error("a partner past maxBracketLines was found")
	}
}
