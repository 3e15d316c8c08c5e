package evalworker

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
)

// interpTrace is a line yaegi writes to the interpreter's stderr for each
// interpreted frame a panic passes through, recovered later or not:
// "1:34: panic: main(...)" (a column inside its wrapper of the input) or
// ".../gopath-1/src/<path>/<file>.go:4:35: panic: <path>.Third(...)".
// It is one write of one line, after whatever the code printed (perhaps
// without a newline). go run prints no such line: the panic's own text is
// the answer's error, and these lines go to Response.Trace.
var interpTrace = regexp.MustCompile(`(?:(?:[A-Za-z]:)?[/\\][^:\n]*\.go:)?\d+:\d+: panic: [^\s()]*\(\.\.\.\)\n`)

// splitTrace takes the interpreter's panic trace lines out of out: what is
// left is what the code printed; trace is the lines, in order.
func splitTrace(out string) (printed, trace string) {
	if !strings.Contains(out, ": panic: ") {
		return out, ""
	}
	var t strings.Builder
	printed = interpTrace.ReplaceAllStringFunc(out, func(line string) string {
		t.WriteString(line)
		return ""
	})
	return printed, t.String()
}

// panicPosition is the position yaegi puts in front of the runtime errors
// it raises itself (a failed type assertion: "2:1: interface conversion:
// interface {} is string, not int"), in the input or in a project file.
var panicPosition = regexp.MustCompile(`^(?:(?:[A-Za-z]:)?[/\\][^:\n]*\.go:)?\d+:\d+: `)

// panicValue is a panic's value as Go prints it: the interpreter's own
// runtime errors without its position (go run's message has none), and
// panic(nil) as Go (since 1.21) says it.
func panicValue(v any) string {
	// yaegi panics with the reflect.Value of the argument: panic(nil)
	// comes as a nil interface, which Go (since 1.21) turns into a
	// *runtime.PanicNilError.
	if rv, ok := v.(reflect.Value); v == nil || ok && (!rv.IsValid() || rv.Kind() == reflect.Interface && rv.IsNil()) {
		return "panic called with nil argument"
	}
	s := fmt.Sprintf("%v", v)
	if fmt.Sprintf("%T", v) == "*interp.cfgError" {
		s = panicPosition.ReplaceAllString(s, "")
	}
	return s
}

// errNilDeref is Go's panic for *x with x nil. yaegi dereferences through
// reflect.Value.Elem, which gives no value instead of panicking, so an
// input that ends in *x said nothing where go run panics.
var errNilDeref = errors.New("panic: runtime error: invalid memory address or nil pointer dereference")
