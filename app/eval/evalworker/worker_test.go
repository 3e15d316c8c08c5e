package evalworker

import (
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestPanicInLinkedCodeShowsItsFrames: a panic inside a linked package
// (here strconv, as for a dependency the native worker links) shows that
// package's frames as go run does, without the runtime's, reflect's or
// the interpreter's; a panic of the interpreted code's own shows none.
func TestPanicInLinkedCodeShowsItsFrames(t *testing.T) {
	in := interp.New(interp.Options{})
	if err := in.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Eval(`import "strconv"`); err != nil {
		t.Fatal(err)
	}
	_, err := in.Eval("strconv.FormatInt(1, 99)")
	got, _ := errorText(err)
	for _, want := range []string{"panic: strconv: illegal AppendInt/FormatInt base\n\ngoroutine 1 [running]:\n", "strconv.formatBits(...)\n\t", "\nstrconv.FormatInt(...)\n\t"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	for _, not := range []string{"runtime.", "reflect.", "yaegi", "\nmain."} {
		if strings.Contains(got, not) {
			t.Errorf("%q shows %q", got, not)
		}
	}
	_, err = in.Eval("panic(\"mine\")")
	if got, _ := errorText(err); got != "panic: mine" {
		t.Errorf("own panic: %q", got)
	}
}

// TestACallWithoutResultsHasNoValue: a call of a linked function or method
// that returns nothing shows no value, as in Go, where yaegi returned the
// callee's zero func ("= <nil> (func(time.Duration))" for time.Sleep). A
// value that is a nil func, a conversion to a func type and a call that
// returns a func keep theirs.
func TestACallWithoutResultsHasNoValue(t *testing.T) {
	cases := []struct{ code, value, typ string }{
		{`import ("net/http"; "sort"; "strings"; "sync"; "time")`, "", ""},
		{"time.Sleep(time.Millisecond)", "", ""},
		{"(time.Sleep)(time.Millisecond)", "", ""},
		{"sort.Ints([]int{2, 1})", "", ""},
		{"var wg sync.WaitGroup; wg.Add(1); wg.Done()", "", ""},
		{"var f func(); f", "<nil>", "func()"},
		{"http.HandlerFunc(nil)", "<nil>", "http.HandlerFunc"},
		{"strings.NewReplacer(\"a\", \"b\").Replace(\"a\")", `"b"`, "string"},
		{"func g() func() { return nil }", "", ""},
		{"g()", "<nil>", "func()"},
	}
	var inputs []string
	for _, c := range cases {
		inputs = append(inputs, c.code)
	}
	for i, r := range evalAll(t, inputs...) {
		c := cases[i]
		if r.Error != "" || r.Value != c.value || r.Type != c.typ {
			t.Errorf("%s: value %q (%s), error %q; want %q (%s)", c.code, r.Value, r.Type, r.Error, c.value, c.typ)
		}
	}
}
