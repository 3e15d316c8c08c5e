package main

import "strings"

// readText splits trestle_read's answer, which is text only: its header
// line ("main.go lines 1-9 of 9, unsaved editor text, sha256 …:") and the
// file's text after it. unsaved says whether the header flags the editor's
// unsaved text.
func readText(answer string) (text string, unsaved bool) {
	header, text, _ := strings.Cut(answer, "\n")
	return text, strings.Contains(header, ", unsaved editor text, ")
}
