// Package testfunc finds the test, benchmark, fuzz target or example that
// holds a line of a Go test file, and the go test arguments that run just
// it. It parses with go/parser (no type checking, no I/O) and never
// imports Fyne.
package testfunc
