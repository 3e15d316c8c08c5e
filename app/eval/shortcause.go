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
	s, _, _ := strings.Cut(err.Error(), "\n")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
