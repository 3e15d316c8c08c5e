package ui

import (
	"strings"
	"testing"

	"trestle/app/eval"
)

func TestTranscriptNamesWhoAskedAndShowsTheResult(t *testing.T) {
	got := linesText(transcript("claude-code", "x := 1\nx + 1", eval.Result{Output: "hi\n", Value: "2", Type: "int"}, nil))
	want := "» [claude-code] x := 1\n  x + 1\nhi\n= 2 (int)\n"
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	got = linesText(transcript("you", "panic(1)", eval.Result{Err: "panic: 1"}, nil))
	if !strings.Contains(got, "! panic: 1") {
		t.Fatalf("error line missing: %q", got)
	}
}

func linesText(lines []evalLine) string {
	var s []string
	for _, l := range lines {
		s = append(s, l.text)
	}
	return strings.Join(s, "\n")
}
