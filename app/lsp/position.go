package lsp

import (
	"net/url"
	"path/filepath"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// Position is a place in a file: Line and Col are 1-based, Col counts runes.
type Position struct {
	Line int `json:"line"`
	Col  int `json:"column"`
}

// Range is a span in a file, End exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a file. Path is project-relative with forward
// slashes for a file inside the project, else absolute (the standard
// library, the module cache).
type Location struct {
	Path  string `json:"path"`
	Range Range  `json:"range"`
}

// fileURI is the file: URI of an absolute path.
func fileURI(abs string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return u.String()
}

// uriPath is the absolute path of a file: URI, "" for another scheme.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}

// toProtocol turns a 1-based rune position in a text into the protocol's
// 0-based UTF-16 one.
func toProtocol(l *lines, p Position) position {
	line := l.line(max(p.Line-1, 0))
	units, col := 0, 1
	for _, r := range line {
		if col >= p.Col {
			break
		}
		units += utf16.RuneLen(r)
		col++
	}
	if p.Col > col { // past the end of the line: keep the overshoot
		units += p.Col - col
	}
	return position{Line: max(p.Line-1, 0), Character: units}
}

// fromProtocol turns the protocol's position in a text into a 1-based rune one.
func fromProtocol(l *lines, p position) Position {
	line := l.line(p.Line)
	units, col := 0, 1
	for _, r := range line {
		if units >= p.Character {
			break
		}
		units += utf16.RuneLen(r)
		col++
	}
	return Position{Line: p.Line + 1, Col: col}
}

// offsetOf is the byte offset in a text of the protocol position p
// (clamped to the line's end and the text's end).
func offsetOf(l *lines, p position) int {
	if p.Line >= l.count() {
		return len(l.text)
	}
	text := l.text
	off := l.starts[max(p.Line, 0)]
	units := 0
	for off < len(text) && units < p.Character {
		r, size := utf8.DecodeRuneInString(text[off:])
		if r == '\n' {
			break
		}
		units += utf16.RuneLen(r)
		off += size
	}
	return off
}

var timeNow = time.Now

func utf16Units(s string) []uint16 { return utf16.Encode([]rune(s)) }

func utf16Decode(u []uint16) []rune { return utf16.Decode(u) }
