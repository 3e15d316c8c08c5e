package changeset

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// hidden reports whether r must not reach a terminal or a text view as
// itself: a control character (C0, DEL, C1), a format character (bidi
// controls, zero-width ones, the byte order mark) or a line or paragraph
// separator. Each can make text display as something it is not.
func hidden(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.In(r, unicode.Zl, unicode.Zp)
}

// EscapeControls returns s with every character that could forge what a
// terminal shows written as a Go escape (ESC as \x1b, CR as \r, U+202E as
// \u202e, a byte that is not UTF-8 as \xff), except those in keep (for
// example "\t\n" for a diff line or a description). Text an agent wrote
// goes through it before it is printed. It is safe for concurrent use.
func EscapeControls(s, keep string) string {
	if !needsEscape(s, keep) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case strings.ContainsRune(keep, r) || !hidden(r):
			b.WriteString(s[i : i+n])
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}

func needsEscape(s, keep string) bool {
	for _, r := range s {
		if (r == utf8.RuneError || hidden(r)) && !strings.ContainsRune(keep, r) {
			return true
		}
	}
	return !utf8.ValidString(s)
}

// MarkControls returns s with every character that could make a line show
// as something it is not replaced by a visible sign, for the window's diff
// view: a C0 control by its control picture (ESC as ␛, CR as ␍), DEL as ␡,
// and a C1 control, bidi control or other invisible format character as
// ⟦U+202E⟧. Tabs are kept. It is safe for concurrent use.
func MarkControls(s string) string {
	if !needsEscape(s, "\t") {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t' || !hidden(r) && r != utf8.RuneError:
			b.WriteRune(r)
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune('␡')
		default:
			fmt.Fprintf(&b, "⟦U+%04X⟧", r)
		}
	}
	return b.String()
}

// HasHiddenText reports whether s holds a character MarkControls would
// mark, for a warning beside a diff.
func HasHiddenText(s string) bool { return needsEscape(s, "\t\n") }
