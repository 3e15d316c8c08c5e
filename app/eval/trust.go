package eval

import (
	"fmt"
	"strings"
)

// Project trust (package trust, issue 20): in a project the person has not
// trusted, nothing of the project's is compiled to native code and run by
// the evaluator. A package the interpreter reads from source runs as the
// person's input does; a project package that needs native code (unsafe,
// assembly, cgo) is not linked into a worker, and the compiled path builds
// no program that imports a project package. Either is refused with the
// reason and how to trust the project, and nothing is kept.

// untrustedNative is why path may not run natively in this project, or ""
// when it may: the project is trusted, or path is not one of its packages.
func (m *Manager) untrustedNative(path string) string {
	if m.opts.ProjectTrusted == nil || m.opts.ProjectTrusted() || !m.inModule(path) {
		return ""
	}
	return fmt.Sprintf("%s would run as native code, and this project is not trusted: Trestle runs a project's "+
		"own packages natively only when the person trusts the folder (the Untrusted button in the status bar, "+
		"or trestle --trust)", path)
}

// inModule reports whether path is a package of the project's module.
func (m *Manager) inModule(path string) bool {
	mod := m.opts.Module
	return mod != "" && (path == mod || strings.HasPrefix(path, mod+"/"))
}
