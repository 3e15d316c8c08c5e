// Package compiled runs evaluator input that the interpreter (yaegi) cannot
// run — range over func, the generic standard library (slices, maps, iter),
// Go 1.23+ APIs such as strings.Lines — as a compiled program, the way the
// GoNB notebook kernel does.
//
// A Session keeps the declarations (imports, funcs, types, vars, consts) of
// the compiled inputs it has run, and the inputs of either engine that ran
// without error: a compiled input runs again first those that define or
// change the variables it uses (history.go), so that the session's state
// is there. Each input is split with go/scanner and
// go/parser into imports, declarations and statements; the accumulated
// declarations, the input's declarations and a main holding the input's
// statements make one generated file that `go build -overlay` places inside
// the project's module (no byte is written into the project), so the
// project's packages, internal ones included, and its dependencies import
// as they do in the project's own build. The program runs in its own process
// group under the caller's deadline; the value of a last expression comes
// back formatted as the interpreter formats it. Compiler errors are mapped
// to the input's own lines and columns with /*line*/ directives; a panic
// nothing recovers reads as go run's report of its value (gen.go's
// __trestlePanicText follows the runtime's printpanicval).
//
// Nothing here imports Fyne or writes to os.Stdout; the program's output is
// captured.
package compiled
