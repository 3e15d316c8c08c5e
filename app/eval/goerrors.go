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

// goErrorText rewrites yaegi's error forms that have a go command
// equivalent into that equivalent, and drops generated folder names.
func goErrorText(errText, module string) string {
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
