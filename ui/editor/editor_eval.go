package editor

import (
	"go/scanner"
	"go/token"
	"strings"
)

// maxParseBytes bounds the text Ctrl+Enter scans for the declaration
// around the caret: the scan runs on the main goroutine and takes about
// 10 ms a megabyte, so in larger files Ctrl+Enter evaluates the caret's
// line.
const maxParseBytes = 1 << 20

// evaluate hands OnEval the selection, or with none the code around the
// caret (see codeAround). Ctrl+Enter; main goroutine.
func (e *Editor) evaluate() {
	code := e.SelectedText()
	if strings.TrimSpace(code) == "" {
		code = codeAround(e.buf.Text(), e.caret.Line)
	}
	if strings.TrimSpace(code) != "" && e.OnEval != nil {
		e.OnEval(code)
	}
}

// codeAround returns the code to evaluate for a caret on line (0-based)
// of text with nothing selected: the top-level declaration or statement
// that spans the line (see topLevelLines), or "" when none does (a blank
// line or a comment between them). Text over maxParseBytes gives the line.
// Pure: any goroutine.
func codeAround(text string, line int) string {
	lines := strings.Split(text, "\n")
	if line < 0 || line >= len(lines) {
		return ""
	}
	if len(text) > maxParseBytes {
		return lines[line]
	}
	first, last, ok := topLevelLines(text, line+1)
	if !ok {
		return ""
	}
	return strings.Join(lines[first-1:last], "\n")
}

// topLevelLines returns the 1-based first and last lines of the top-level
// item of src that spans line (1-based). An item is a run of Go tokens
// ended by a line break outside brackets: a declaration in a file, a
// statement or expression in a scratch file, a whole function or loop
// with its body. It reads tokens with go/scanner, so code that does not
// parse (yet) still splits where its brackets say.
func topLevelLines(src string, line int) (first, last int, ok bool) {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(file, []byte(src), nil, 0)
	depth := 0
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF || tok == token.SEMICOLON && lit == "\n" && depth <= 0 {
			if first > 0 && first <= line && line <= last {
				return first, last, true
			}
			if tok == token.EOF || first > line {
				return 0, 0, false
			}
			first, depth = 0, 0
			continue
		}
		depth += bracketDepth(tok)
		n := file.Line(pos)
		if first == 0 {
			first = n
		}
		last = n + strings.Count(lit, "\n") // a raw string can span lines
	}
}

// bracketDepth is how much tok opens (1) or closes (-1) brackets.
func bracketDepth(tok token.Token) int {
	switch tok {
	case token.LBRACE, token.LPAREN, token.LBRACK:
		return 1
	case token.RBRACE, token.RPAREN, token.RBRACK:
		return -1
	}
	return 0
}
