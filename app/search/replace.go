package search

import (
	"strings"
	"unicode/utf8"
)

// Edit is one replacement in a text: rune columns [Start, End) of the
// 0-based Line become New.
type Edit struct {
	Line, Start, End int
	New              string
}

// Replacements finds q in text line by line, as Run does in a file, and
// says what replacing each match with repl gives. For a regular expression
// repl may name groups ($1, ${name}); a literal's repl is taken as it is.
// It is plain computation, safe for concurrent use.
func Replacements(text string, q Query, repl string) ([]Edit, error) {
	re, err := compile(q)
	if err != nil {
		return nil, err
	}
	var out []Edit
	for i, line := range strings.Split(text, "\n") {
		for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
			if m[0] == m[1] {
				continue // an empty match replaces nothing a person meant
			}
			n := repl
			if q.Regexp {
				n = string(re.ExpandString(nil, repl, line, m))
			}
			out = append(out, Edit{Line: i, Start: utf8.RuneCountInString(line[:m[0]]),
				End: utf8.RuneCountInString(line[:m[1]]), New: n})
		}
	}
	return out, nil
}
