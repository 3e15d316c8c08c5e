// Package fynelocale keeps Fyne from logging "Fyne error: Error parsing
// user locale C" on stderr when the locale is C.UTF-8 (the default of many
// containers). Fyne's lang package reads the locale from the environment in
// its init, through go-locale, which turns C.UTF-8 into the language "C"
// that no parser accepts (plain C and POSIX it skips). Importing this
// package first sets LANGUAGE=en in that case, which go-locale reads
// instead; the C locale's messages are English anyway, so nothing else
// changes. Its init must run before Fyne's: Go initializes packages in
// import path order among those whose imports are done, and this one
// imports only os, so cmd/trestle's test checks the order on the real
// binary. Nothing here writes to stdout or stderr.
package fynelocale
