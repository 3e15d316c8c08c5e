package evalworker

import (
	"math"
	"regexp"
	"strings"
	"testing"
)

// goDetail is what Go's runtime error for an index or a slice bound says
// that the interpreter cannot know (see indexPanic).
var goDetail = regexp.MustCompile(` \[[^\]]*\] with (length|capacity) \d+| \[\d*:\d*(:\d*)?\]| \[-\d+\]`)

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

// TestIndexPanicsReadAsGo: an index or a slice bound out of range in
// interpreted code panics with Go's runtime error, not reflect's words
// ("reflect: slice index out of range"), as far as the interpreter can
// know it: without the index and the length, which a note says it cannot
// tell. A reflect call of the code's own that panics keeps reflect's
// words, as under go run.
func TestIndexPanicsReadAsGo(t *testing.T) {
	cases := []panicCase{
		{"a slice's index", "sA := []int{1, 2, 3}\niA := 5\n_ = sA[iA]"},
		{"a negative index", "sN := []int{1, 2, 3}\niN := -1\n_ = sN[iN]"},
		{"an array's index", "var aA [3]int\niB := 4\n_ = aA[iB]"},
		{"a string's index", "stA := \"abc\"\niC := 7\n_ = stA[iC]"},
		{"a slice's bound", "sB := []int{1, 2, 3}\njA := 5\n_ = sB[1:jA]"},
		{"a full slice's bound", "sC := []int{1, 2, 3}\njB := 5\n_ = sC[0:1:jB]"},
		{"bounds the wrong way round", "sD := []int{1, 2, 3}\nlo, hi := 2, 1\n_ = sD[lo:hi]"},
		{"a string's bound", "stB := \"abc\"\njC := 5\n_ = stB[1:jC]"},
		{"an index in a function", "func() { s := []int{1}; i := 2; fmt.Print(\"in\"); _ = s[i] }()"},
		{"reflect's own index (a control)", "_ = reflect.ValueOf([]int{1}).Index(3)"},
	}
	answers := comparePanics(t, "", cases, true)
	for i, a := range answers {
		own := strings.Contains(cases[i].name, "control")
		if noted := strings.Contains(strings.Join(a.Notes, "\n"), "cannot tell"); noted == own {
			t.Errorf("%s: notes %q", cases[i].name, a.Notes)
		}
	}
}

// TestPanicValuesReadAsGo: a panic's value reads as Go's runtime prints it
// when nothing recovers the panic: an error's Error() and a Stringer's
// String() (newlines followed by a tab), a named type's value as T(v), a
// composite value as its type and address. The types here are linked
// (the standard library's; a project's in the native worker). A type the
// input declares is the interpreter's own, without its name or methods:
// such input runs compiled (app/eval/compiled's Misread).
func TestPanicValuesReadAsGo(t *testing.T) {
	cases := []panicCase{
		{"a string", "panic(\"plain\")"},
		{"a string of lines", "panic(\"first\\nsecond\")"},
		{"an int", "panic(42)"},
		{"a float", "panic(1.5)"},
		{"a float32", "panic(float32(0.1))"},
		{"a complex", "panic(2 + 3i)"},
		{"a rune", "panic('x')"},
		{"a byte", "panic(byte(7))"},
		{"a bool", "panic(false)"},
		{"an error", "panic(errors.New(\"bad\"))"},
		{"an error of lines", "panic(fmt.Errorf(\"one\\ntwo: %w\", os.ErrNotExist))"},
		{"an error in an interface", "var eI error = os.ErrClosed\npanic(eI)"},
		{"a Stringer", "panic(time.March)"},
		{"a struct Stringer", "panic(image.Pt(1, 2))"},
		{"a named int", "panic(token.Pos(3))"},
		{"a named string", "panic(template.HTML(\"<b>\"))"},
		{"a named int in an any", "var aN any = token.Pos(4)\npanic(aN)"},
		{"a struct", "panic(struct{ A int }{1})"},
		{"a struct of a linked type", "panic(strings.Builder{})"},
		{"a slice", "panic([]int{1, 2})"},
		{"a map", "panic(map[string]int{\"a\": 1})"},
		{"a pointer", "panic(new(int))"},
		{"panic(nil)", "panic(nil)"},
	}
	comparePanics(t, "", cases, false)
}

// TestLegacyPrintFloat: before Go 1.26 the runtime printed a panic's float
// with seven digits and a three-digit exponent (Go 1.25's
// runtime/panic_test.go: "panic: main.MyFloat64(-9.370000e+001)").
func TestLegacyPrintFloat(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{-93.70, "-9.370000e+001"},
		{float64(float32(-93.70)), "-9.370000e+001"},
		{1.5, "+1.500000e+000"},
		{0, "+0.000000e+000"},
		{1e-7, "+1.000000e-007"},
		{math.Inf(-1), "-Inf"},
	}
	for _, tt := range tests {
		if got := legacyPrintFloat(tt.v); got != tt.want {
			t.Errorf("legacyPrintFloat(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
	if runtimePrintsShortest {
		return
	}
	if got := printComplex(complex(32.1, 10), 128); got != "(+3.210000e+001+1.000000e+001i)" {
		t.Errorf("printComplex = %q", got)
	}
}
