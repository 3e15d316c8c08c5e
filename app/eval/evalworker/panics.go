package evalworker

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
)

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
