package eval

import (
	"fmt"
	"regexp"
	"strings"
)

// yaegi says it cannot find a package's source where the go command says
// that no module provides it (or that the standard library has no such
// package); the person reads Go's words, with what to do.
var noSource = regexp.MustCompile(`unable to find source related to: "([^"]+)"(\. Either the GOPATH environment variable, or the Interpreter\.Options\.GoPath needs to be set)?`)

// compiledInput is the generated folder's name in front of a position in
// the person's input, which the go command prints for some errors (a
// misspelt standard package): positions are the input's alone.
var compiledInput = regexp.MustCompile(`(\S*/)?\.trestle-eval-compiled/input:`)

// runtimePanics are the interpreter's words for Go's runtime errors: it
// runs Go on reflect, so a nil pointer or an index out of range panics
// inside reflect, with reflect's message. The person reads Go's (without
// the index and length, which the interpreter's message lacks).
var runtimePanics = strings.NewReplacer(
	"panic: reflect: call of reflect.Value.Field on zero Value", "panic: runtime error: invalid memory address or nil pointer dereference",
	"panic: reflect: call of reflect.Value.Elem on zero Value", "panic: runtime error: invalid memory address or nil pointer dereference",
	"panic: reflect: call of reflect.Value.Set on zero Value", "panic: runtime error: invalid memory address or nil pointer dereference",
	"panic: reflect: call of reflect.Value.Index on zero Value", "panic: runtime error: invalid memory address or nil pointer dereference",
	"panic: reflect: slice index out of range", "panic: runtime error: index out of range",
	"panic: reflect: array index out of range", "panic: runtime error: index out of range",
	"panic: reflect.Value.Slice: slice index out of bounds", "panic: runtime error: slice bounds out of range",
	"panic: reflect.Value.Slice3: slice index out of bounds", "panic: runtime error: slice bounds out of range",
	"panic: reflect: string index out of range", "panic: runtime error: index out of range",
	"panic: reflect.Value.Call: call of nil function", "panic: runtime error: invalid memory address or nil pointer dereference",
	"panic: reflect.MakeSlice: negative len", "panic: runtime error: makeslice: len out of range",
	"panic: reflect.MakeSlice: negative cap", "panic: runtime error: makeslice: cap out of range",
	"panic: reflect.MakeSlice: len > cap", "panic: runtime error: makeslice: cap out of range",
	"panic: reflect.MakeChan: negative buffer size", "panic: makechan: size out of range",
)

// sliceToArray is reflect's panic for a conversion of a slice to a longer
// array (or a pointer to one); Go's names both, as a runtime error.
var sliceToArray = regexp.MustCompile(`panic: reflect: cannot convert slice with length (\d+) to (?:pointer to )?array with length (\d+)`)

// goErrorText rewrites yaegi's error forms that have a go command (or Go
// runtime) equivalent into that equivalent, and drops generated folder
// names.
func goErrorText(errText, module string) string {
	errText = interpretedPanicText(errText)
	return buildErrorText(errText, module)
}

// interpretedPanicText rewords the interpreter's reflect panics as Go's
// runtime errors. Only for the interpreter's answers: compiled code's
// reflect panics are real ones, which go run reports in reflect's words.
func interpretedPanicText(errText string) string {
	errText = runtimePanics.Replace(errText)
	return sliceToArray.ReplaceAllString(errText, "panic: runtime error: cannot convert slice with length $1 to array or pointer to array with length $2")
}

// buildErrorText drops generated folder names and words a missing package
// as the go command does, for every engine's answers.
func buildErrorText(errText, module string) string {
	errText = compiledInput.ReplaceAllString(errText, "")
	return noSource.ReplaceAllStringFunc(errText, func(m string) string {
		path := noSource.FindStringSubmatch(m)[1]
		first, _, _ := strings.Cut(path, "/")
		switch {
		case module != "" && (path == module || strings.HasPrefix(path, module+"/")):
			return fmt.Sprintf("package %s is not in the project (no folder %s)", path, strings.TrimPrefix(strings.TrimPrefix(path, module), "/"))
		case !strings.Contains(first, "."):
			return fmt.Sprintf("package %s is not in std", path)
		}
		return fmt.Sprintf("no required module provides package %s; to add it: go get %s", path, path)
	})
}
