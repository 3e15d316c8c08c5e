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
