package eval

import (
	"errors"
	"strings"

	"trestle/app/eval/workerbuild"
)

// shortCause says in one line why a native build failed, for notes: the
// cause's last lines, never a whole compiler command line.
func shortCause(err error) string {
	var be *workerbuild.BuildError
	if errors.As(err, &be) {
		return be.Short()
	}
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	s := lines[0]
	if last := strings.TrimSpace(lines[len(lines)-1]); len(lines) > 1 && last != "" {
		s += " " + last // "go: errors parsing go.mod:" and then the error
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
