package textbuf

import "strings"

// Line commands and word movement of a code editor, on plain text: the
// editor turns their results into one edit each.

// WordLeft returns where Ctrl+Left goes from col in line: the start of the
// word (or run of punctuation) before col, skipping spaces first; at
// column 0 ok is false (the caret goes to the end of the line above).
func WordLeft(line string, col int) (to int, ok bool) {
	runes := []rune(line)
	col = min(max(col, 0), len(runes))
	if col == 0 {
		return 0, false
	}
	for col > 0 && runeClass(runes[col-1]) == classSpace {
		col--
	}
	if col == 0 {
		return 0, true
	}
	class := runeClass(runes[col-1])
	for col > 0 && runeClass(runes[col-1]) == class {
		col--
	}
	return col, true
}

// WordRight returns where Ctrl+Right goes from col in line: the end of the
// word (or run of punctuation) after col, skipping spaces first; at the
// end of the line ok is false (the caret goes to the start of the next).
func WordRight(line string, col int) (to int, ok bool) {
	runes := []rune(line)
	col = min(max(col, 0), len(runes))
	if col == len(runes) {
		return col, false
	}
	for col < len(runes) && runeClass(runes[col]) == classSpace {
		col++
	}
	if col == len(runes) {
		return col, true
	}
	class := runeClass(runes[col])
	for col < len(runes) && runeClass(runes[col]) == class {
		col++
	}
	return col, true
}

// ToggleComment comments lines out with prefix ("//" for Go) at the
// smallest indentation among them, or, when every non-blank line is
// commented already, uncomments them (the prefix and one space after it).
// Blank lines stay as they are.
func ToggleComment(lines []string, prefix string) []string {
	out := make([]string, len(lines))
	commented, indent := true, ""
	first := true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		lead := LeadingSpace(l)
		if first || len(lead) < len(indent) {
			indent, first = lead, false
		}
		commented = commented && strings.HasPrefix(l[len(lead):], prefix)
	}
	if first { // only blank lines
		copy(out, lines)
		return out
	}
	for i, l := range lines {
		switch {
		case strings.TrimSpace(l) == "":
			out[i] = l
		case commented:
			lead := LeadingSpace(l)
			rest := strings.TrimPrefix(l[len(lead):], prefix)
			out[i] = lead + strings.TrimPrefix(rest, " ")
		default:
			out[i] = indent + prefix + " " + l[len(indent):]
		}
	}
	return out
}

// LineRange is the range of whole lines first..last (0-based, inclusive)
// with the line break after last, or before first when last is the last
// line of the text: what deleting, moving or duplicating those lines
// replaces.
func (b *Buffer) LineRange(first, last int) Range {
	if last+1 < b.LineCount() {
		return Range{Start: Pos{Line: first}, End: Pos{Line: last + 1}}
	}
	if first > 0 {
		return Range{Start: Pos{Line: first - 1, Col: b.LineLen(first - 1)}, End: Pos{Line: last, Col: b.LineLen(last)}}
	}
	return Range{End: Pos{Line: last, Col: b.LineLen(last)}}
}

// Lines returns lines first..last joined with "\n".
func (b *Buffer) Lines(first, last int) string {
	return b.lines.join(first, last, "\n")
}
