package evalworker

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
)

// panicPosition is the position yaegi puts in front of the runtime errors
// it raises itself (a failed type assertion: "2:1: interface conversion:
// interface {} is string, not int"), in the input or in a project file.
var panicPosition = regexp.MustCompile(`^(?:(?:[A-Za-z]:)?[/\\][^:\n]*\.go:)?\d+:\d+: `)

// panicValue is a panic's value as Go's runtime prints it when nothing
// recovers the panic (runtime.printpanics): the interpreter's own runtime
// errors without its position (go run's message has none), panic(nil) as
// Go (since 1.21) says it, and any other value as printPanicValue.
func panicValue(v any) string {
	// yaegi panics with the reflect.Value of the argument: panic(nil)
	// comes as a nil interface, which Go (since 1.21) turns into a
	// *runtime.PanicNilError.
	rv, ok := v.(reflect.Value)
	if !ok {
		rv = reflect.ValueOf(v) // a panic of linked code, or of the interpreter's
	}
	if !rv.IsValid() || rv.Kind() == reflect.Interface && rv.IsNil() {
		return "panic called with nil argument"
	}
	if rv.Kind() == reflect.Interface {
		rv = rv.Elem()
	}
	s := printPanicValue(rv)
	if rv.Type().String() == "*interp.cfgError" {
		s = panicPosition.ReplaceAllString(s, "")
	}
	return s
}

// printPanicValue is v as Go's runtime prints a panic's value
// (preprintpanics and printpanicval): an error's Error() and a Stringer's
// String(); a bool, number or string of a predeclared type as print
// prints it (printFloat); a named one as
// T(v) ("token.Pos(3)", `template.HTML("<b>")`); anything else as its
// type and the address of its value ("(map[string]int) 0xc000012345").
// A string's newlines are followed by a tab, as the runtime indents them.
//
// A type the interpreted code declares has lost its name and methods in
// the interpreter (yaegi makes it an unnamed reflect type): a panic with
// such a value cannot read as Go's; the evaluator runs input that uses
// such types compiled.
func printPanicValue(v reflect.Value) string {
	if !v.CanInterface() {
		return fmt.Sprintf("%v", v)
	}
	switch x := v.Interface().(type) {
	case error:
		return indented(methodText(x, x.Error))
	case fmt.Stringer:
		return indented(methodText(x, x.String))
	}
	t := v.Type()
	named := t.PkgPath() != "" // a predeclared type has none
	switch k := t.Kind(); {
	case k == reflect.String && named:
		return t.String() + `("` + indented(v.String()) + `")`
	case k == reflect.String:
		return indented(v.String())
	case k == reflect.Complex64 || k == reflect.Complex128:
		s := printComplex(v.Complex(), t.Bits())
		if named {
			return t.String() + s
		}
		return s
	case k == reflect.Bool || k >= reflect.Int && k <= reflect.Float64:
		s := printNumber(v)
		if named {
			return t.String() + "(" + s + ")"
		}
		return s
	}
	return fmt.Sprintf("(%s) %#x", t, valueAddress(v))
}

// printNumber is a bool or a real number as the runtime's print prints it
// (printFloat), not through a Format method of the type.
func printNumber(v reflect.Value) string {
	switch k := v.Kind(); {
	case k == reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case k >= reflect.Int && k <= reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case k >= reflect.Uint && k <= reflect.Uintptr:
		return strconv.FormatUint(v.Uint(), 10)
	}
	return printFloat(v.Float(), v.Type().Bits())
}

// methodText calls the value's Error or String method; a method that
// panics gives fmt's text for it (Go itself stops with "panic while
// printing panic value").
func methodText(x any, method func() string) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprintf("%v", x)
		}
	}()
	return method()
}

// indented is s with a tab after each newline, as the runtime prints a
// panic's text.
func indented(s string) string { return strings.ReplaceAll(s, "\n", "\n\t") }

// valueAddress is what the runtime prints for a value it cannot show: the
// pointer a pointer-shaped value holds, else the address of a copy (Go's
// interface holds one).
func valueAddress(v reflect.Value) uintptr {
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return v.Pointer()
	}
	c := reflect.New(v.Type())
	c.Elem().Set(v)
	return c.Pointer()
}

// goIndexErrors are reflect's panics for an index or a slice bound out of
// range, with Go's runtime error for each, as far as it is known. yaegi
// evaluates s[i] and s[i:j] through reflect.Value.Index, Slice and
// Slice3, whose panic carries neither the index nor the length, and the
// interpreter's trace points at the first statement of the function, not
// at the expression: Go's "index out of range [5] with length 3" cannot be
// rebuilt without running the code again (which may have side effects),
// so the answer gives Go's words without the numbers, and indexNote says
// so.
var goIndexErrors = map[string]string{
	"reflect: slice index out of range":                     "runtime error: index out of range",
	"reflect: array index out of range":                     "runtime error: index out of range",
	"reflect: string index out of range":                    "runtime error: index out of range",
	"reflect.Value.Slice: slice index out of bounds":        "runtime error: slice bounds out of range",
	"reflect.Value.Slice: string slice index out of bounds": "runtime error: slice bounds out of range",
	"reflect.Value.Slice3: slice index out of bounds":       "runtime error: slice bounds out of range",
}

// indexNote goes with an answer whose panic is one of goIndexErrors.
const indexNote = "the interpreter cannot tell the index and the length (or capacity) that Go's message gives (\"index out of range [5] with length 3\"): it indexes through reflect, whose panic carries neither"

// indexPanic is Go's runtime error for v when v is reflect's panic for an
// index or a slice bound out of range that the interpreter's own s[i] or
// s[i:j] raised. When the panicking reflect call was made by other code
// (the input's reflect.ValueOf(s).Index(9), or a linked package's), go run
// prints reflect's words too, and so does the answer. pcs is the panic's
// stack (interp.Panic.Callers); when it was cut before the reflect call
// (64 frames, a panic through many interpreted calls), the call is taken
// to be the interpreter's, which is by far the more common.
func indexPanic(v any, pcs []uintptr) (string, bool) {
	s, ok := v.(string)
	if !ok || goIndexErrors[s] == "" {
		return "", false
	}
	frames := runtime.CallersFrames(pcs)
	var prev string
	for {
		f, more := frames.Next()
		if prev == "runtime.gopanic" && strings.HasPrefix(f.Function, "reflect.Value.") {
			caller, _ := frames.Next()
			if !strings.HasPrefix(caller.Function, yaegiPkg) {
				return "", false
			}
			break
		}
		if !more {
			break
		}
		prev = f.Function
	}
	return goIndexErrors[s], true
}

// errNilDeref is Go's panic for *x with x nil. yaegi dereferences through
// reflect.Value.Elem, which gives no value instead of panicking, so an
// input that ends in *x said nothing where go run panics.
var errNilDeref = errors.New("panic: runtime error: invalid memory address or nil pointer dereference")
