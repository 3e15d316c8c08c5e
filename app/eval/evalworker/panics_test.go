package evalworker

import (
	"regexp"
	"strings"
	"testing"
)

// goDetail is what Go's runtime error for an index or a slice bound says
// that the interpreter cannot know (see indexPanic).
var goDetail = regexp.MustCompile(` \[[^\]]*\] with (length|capacity) \d+| \[\d*:\d*(:\d*)?\]`)

// TestOutputBeforeAPanicIsKept: what the input printed before a panic
// nothing recovers is the answer's output, as go run prints it: digits
// without a newline (which once read as the interpreter's trace position
// "1:28: "), text to stderr, a log line that looks like a trace line. The
// interpreter's trace lines are in Trace, and only they.
func TestOutputBeforeAPanicIsKept(t *testing.T) {
	cases := []panicCase{
		{"digits without a newline", "fmt.Print(42)\npanic(\"x\")"},
		{"numbers printed together", "fmt.Print(1, 2, 3)\npanic(\"y\")"},
		{"text then digits", "fmt.Print(\"before:\")\nfmt.Print(7)\npanic(\"z\")"},
		{"digits on stderr", "fmt.Fprint(os.Stderr, 12)\npanic(\"e\")"},
		{"a position on stderr", "fmt.Fprint(os.Stderr, \"1:28: \")\npanic(\"p\")"},
		{"a trace line of the code's own", "fmt.Println(\"1:34: panic: main(...)\")\npanic(\"q\")"},
		{"a log line like a trace line", "log.SetFlags(0)\nlog.Print(\"2:1: panic: main(...)\")\npanic(\"l\")"},
		{"digits in a function that panics", "func() { fmt.Print(5); panic(\"f\") }()"},
	}
	answers := comparePanics(t, "", cases, false)
	for i, a := range answers {
		lines := strings.Split(strings.TrimSuffix(a.Trace, "\n"), "\n")
		for _, l := range lines {
			if !strings.HasSuffix(l, "(...)") || !strings.Contains(l, ": panic: ") {
				t.Errorf("%s: trace %q has a line that is not the interpreter's: %q", cases[i].name, a.Trace, l)
			}
		}
	}
	if got := strings.Count(answers[len(answers)-1].Trace, "\n"); got != 2 {
		t.Errorf("a panic in a func literal: trace %q, want two lines (the literal's and the input's)", answers[len(answers)-1].Trace)
	}
}
