package eval

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"trestle/app/eval/workerbuild"
)

// Project packages the interpreter cannot run although the Go compiler
// accepts them. yaegi has bugs the plan cannot foresee: regexp2's syntax
// package does not import ("cannot use []*syntax.regexNode as type
// []*struct {...}"), mcp-go's mcp package panics the interpreter while it
// imports ("nil type"), goldmark imports but its Convert panics inside
// reflect. Such a package is compiled into the native worker instead, like
// one that uses unsafe: the failure asks for a rebuild with it native, and
// the new worker takes over when it is ready (at once if the evaluator
// holds no state, else at its next restart). A panic of the evaluated code
// itself (panic("x"), an index out of range) asks for nothing.

// importError finds the packages an import error went through, outermost
// first: `import "a" error: .../a.go:3:2: import "a/b" error: ...`.
var importError = regexp.MustCompile(`import "([^"]+)" error:`)

// interpreterTrouble are the starts and parts of errors that come from the
// interpreter's own machinery, not from the evaluated code: a panic inside
// reflect while yaegi builds values (goldmark: "reflect: call of
// reflect.Value.Interface on zero Value"), its placeholder for recursive
// types, a nil type, and (for a worker that died while an input imported
// project packages: compileOnCrash) a stack overflow (jsonschema's
// recursive types send yaegi round in circles). A match is only a
// candidate: a panic that go run raises too is the program's
// (programsOwnPanic, programOverflow in ownpanic.go).
var interpreterTrouble = regexp.MustCompile(`^panic: (reflect[.:]|nil type)|unsafe2\.dummy|fatal error: stack overflow`)

// compileUninterpretable asks for a rebuild that compiles in the project
// packages the interpreter failed on (failedOn) and that were not asked
// for before. code is the input, history the worker's earlier
// state-defining inputs. It returns a note for the caller, or "".
func (m *Manager) compileUninterpretable(name, code string, history []string, res Result) string {
	if !m.opts.Native || res.Err == "" || res.Mode != ModeInterpreted {
		return ""
	}
	ns := m.native(name)
	ns.mu.Lock()
	plan := ns.plan
	ns.mu.Unlock()
	if plan == nil {
		return ""
	}
	// Only this input and its trace say what failed: the packages earlier
	// inputs imported did not fail (history is not evidence).
	_ = history
	asked := ns.askCompile(failedOn(plan, res, code), reasonOf(res.Err))
	if len(asked) == 0 {
		return ""
	}
	m.refresh(name)
	return fmt.Sprintf("the interpreter failed on %s, which the Go compiler accepts; it is being compiled into the native evaluator, which takes over when it is ready (restart the evaluator then if you have defined state)", strings.Join(asked, ", "))
}

// compileOnCrash is compileUninterpretable for a worker that died during
// an input that imports project packages: err is why. The program's own
// endless recursion (programOverflowError) asks for nothing.
func (m *Manager) compileOnCrash(name, code string, err error) string {
	if !strings.Contains(code, "import") || errors.As(err, new(programOverflowError)) {
		return ""
	}
	return m.compileUninterpretable(name, code, nil, Result{Mode: ModeInterpreted, Err: err.Error()})
}

// failedOn names the project packages, interpreted in plan (so the Go
// compiler accepts them), that an interpreted input (code, answered res)
// failed on: the package an import failed in (the innermost: the outer
// ones failed because of it), or, when running the input failed inside
// the interpreter's machinery, the project packages whose source the
// panic's trace passes through (the machinery may fail in a package the
// input reaches only indirectly: goldmark's Convert panicked inside
// goldmark/renderer), and only when the trace names none, those that the
// input imports. Never what earlier inputs imported: compiling a package
// in loses its unexported names and generic API. Nothing for a panic that
// is the program's own (programsOwnPanic): go run raises it too.
func failedOn(plan *workerbuild.Plan, res Result, code string) []string {
	errText, output := res.Err, res.Output+res.trace
	if matches := importError.FindAllStringSubmatch(errText, -1); len(matches) > 0 {
		for i := len(matches) - 1; i >= 0; i-- {
			if interpretedInPlan(plan, matches[i][1]) {
				return []string{matches[i][1]}
			}
		}
		return nil
	}
	if !interpreterTrouble.MatchString(errText) || programsOwnPanic(errText, res.trace, code, plan, res.Native) {
		return nil
	}
	var out []string
	add := func(path string) {
		if interpretedInPlan(plan, path) && !slices.Contains(out, path) {
			out = append(out, path)
		}
	}
	for _, f := range traceFile.FindAllStringSubmatch(output, -1) {
		add(f[1])
	}
	if len(out) > 0 {
		return out // the trace names where it failed
	}
	for _, path := range importsOf(code) {
		add(path)
	}
	return out
}

// traceFile finds the package of each source position in an interpreter
// panic's trace: ".../gopath-N/src/<import path>/<file>.go:line:col".
var traceFile = regexp.MustCompile(`/src/([^\s:]+)/[^/\s:]+\.go:\d+`)

// reasonOf is what the interpreter said, for the plan's reason: the first
// line, from the innermost import error on.
func reasonOf(errText string) string {
	why, _, _ := strings.Cut(errText, "\n")
	if i := strings.LastIndex(why, " error: "); i >= 0 {
		why = why[i+len(" error: "):]
	}
	return why
}

// askCompile adds the paths not asked for before to the packages the next
// builds compile in, and returns them.
func (ns *nativeSlot) askCompile(paths []string, why string) []string {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	var asked []string
	for _, path := range paths {
		if _, ok := ns.compile[path]; ok {
			continue
		}
		if ns.compile == nil {
			ns.compile = map[string]string{}
		}
		ns.compile[path] = why
		asked = append(asked, path)
	}
	return asked
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
