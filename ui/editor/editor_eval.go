package editor

import (
	"strings"

	"trestle/app/eval/evalworker"
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
// pieces of src that span line (1-based), cut as the evaluator cuts its
// input (evalworker.Pieces): a statement or expression in a scratch file,
// a whole function or loop with its body; two on one line go together.
// Code that does not parse (yet) still splits where its brackets say.
func topLevelLines(src string, line int) (first, last int, ok bool) {
	for _, p := range evalworker.Pieces(src) {
		end := p.Line + strings.Count(strings.TrimRight(src[p.Start:p.End], " \t\r\n"), "\n")
		if p.Line > line || end < line {
			continue
		}
		if !ok || p.Line < first {
			first = p.Line
		}
		last, ok = max(last, end), true
	}
	return first, last, ok
}
