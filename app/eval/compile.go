package eval

import (
	"fmt"
	"regexp"
	"strings"

	"trestle/app/eval/workerbuild"
)

// Project packages the interpreter cannot import although the Go compiler
// accepts them. yaegi has bugs the plan cannot foresee (github.com/dlclark/
// regexp2's syntax package fails with "cannot use []*syntax.regexNode as
// type []*struct {...}"); such a package is compiled into the native
// worker instead, like one that uses unsafe: the failed import asks for a
// rebuild with it native, and the new worker takes over when it is ready
// (at once if the evaluator holds no state, else at its next restart).

// importError finds the packages an import error went through, outermost
// first: `import "a" error: .../a.go:3:2: import "a/b" error: ...`.
var importError = regexp.MustCompile(`import "([^"]+)" error:`)

// compileUninterpretable asks for a rebuild that compiles in the project
// package an interpreted import failed in, when the plan says the Go
// compiler accepts it (it is interpreted, not broken) and it was not asked
// for before. It returns a note for the caller, or "".
func (m *Manager) compileUninterpretable(name string, res Result) string {
	if !m.opts.Native || res.Err == "" || res.Mode != ModeInterpreted {
		return ""
	}
	matches := importError.FindAllStringSubmatchIndex(res.Err, -1)
	if len(matches) == 0 {
		return ""
	}
	ns := m.native(name)
	ns.mu.Lock()
	plan := ns.plan
	ns.mu.Unlock()
	if plan == nil {
		return ""
	}
	for i := len(matches) - 1; i >= 0; i-- { // the innermost package first: the outer ones failed because of it
		path := res.Err[matches[i][2]:matches[i][3]]
		if !interpretedInPlan(plan, path) {
			continue
		}
		why, _, _ := strings.Cut(strings.TrimSpace(res.Err[matches[i][1]:]), "\n")
		ns.mu.Lock()
		_, asked := ns.compile[path]
		if !asked {
			if ns.compile == nil {
				ns.compile = map[string]string{}
			}
			ns.compile[path] = why
		}
		ns.mu.Unlock()
		if asked {
			return ""
		}
		m.refresh(name)
		return fmt.Sprintf("the interpreter could not import %s, which the Go compiler accepts; it is being compiled into the native evaluator, which takes over when it is ready (restart the evaluator then if you have defined state)", path)
	}
	return ""
}

// interpretedInPlan reports whether path is a package of the project that
// the plan interprets.
func interpretedInPlan(plan *workerbuild.Plan, path string) bool {
	for _, p := range plan.Packages {
		if p.Path == path {
			return p.Mode == workerbuild.ModeInterpreted
		}
	}
	return false
}
