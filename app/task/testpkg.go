package task

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// testResultLine is go test's verdict on one package: "ok  \tpkg\t0.1s",
// "FAIL\tpkg\t0.1s" or "FAIL\tpkg [build failed]".
var testResultLine = regexp.MustCompile(`^(?:ok|FAIL)\s+(\S+)(?:\s|$)`)

// moduleOf reads the module path of the go.mod in root, "" without one.
func moduleOf(root string) string {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return ""
	}
	return modfile.ModulePath(data)
}

// packageDir is the project-relative folder of import path pkg in module
// mod, and whether pkg is in it.
func packageDir(mod, pkg string) (string, bool) {
	switch {
	case mod == "":
		return "", false
	case pkg == mod:
		return "", true
	case strings.HasPrefix(pkg, mod+"/"):
		return strings.TrimPrefix(pkg, mod+"/"), true
	}
	return "", false
}

// Lines of go test output that say which test is talking, and its verdict.
var (
	testStartLine   = regexp.MustCompile(`^=== (?:RUN|CONT|NAME)\s+(\S+)`)
	testVerdictLine = regexp.MustCompile(`^\s*--- (FAIL|PASS|SKIP): (\S+)`)
)

// testOutput sorts the "file:line: message" lines that tests print (always
// indented) into problems: a failed test's lines are problems, a passing
// test's t.Log lines are not. With -v a test's lines come before its
// verdict; without -v a failed test's come after it. Its paths are relative
// to the package, which only the package's verdict line names, so problems
// wait for it and are then placed in the package's folder. Not safe for
// concurrent use: the Run holds its lock.
type testOutput struct {
	current string              // the test whose lines are coming (go test -v)
	pending map[string][]string // lines of tests that have no verdict yet
	after   string              // "FAIL", "PASS" or "SKIP" after a verdict line, until the next test
	failed  []string            // lines of failed tests, awaiting the package's verdict
	open    []string            // the slice the last kept line ended, while its message is empty
}

// keepLine keeps a test's problem line in lines; a line without a message
// (t.Errorf("\nhave...")) waits for the lines below to give it one.
func (o *testOutput) keepLine(lines []string, text string) []string {
	o.open = nil
	lines = keep(lines, text)
	if strings.HasSuffix(strings.TrimSpace(text), ":") && len(lines) > 0 && lines[len(lines)-1] == text {
		o.open = lines // shares its last element with the slice the caller keeps
	}
	return lines
}

// continued gives the open line (see keepLine) the text of the indented
// line below it as its message, and reports whether it did.
func (o *testOutput) continued(text string) bool {
	if o.open == nil || !indented(text) || strings.TrimSpace(text) == "" {
		o.open = nil
		return false
	}
	lines := o.open
	lines[len(lines)-1] = strings.TrimRight(lines[len(lines)-1], " \t") + " " + strings.TrimSpace(text)
	o.open = nil
	return true
}

// line takes one output line that is not a build or vet problem; isProblem
// says whether it has the form of one (an indented test line).
func (o *testOutput) line(text string, isProblem bool) {
	if isProblem {
		o.open = nil
		switch {
		case o.after == "FAIL":
			o.failed = o.keepLine(o.failed, text)
		case o.after != "":
			// a passing or skipped test's output
		case o.current != "":
			if o.pending == nil {
				o.pending = map[string][]string{}
			}
			o.pending[o.current] = o.keepLine(o.pending[o.current], text)
		default: // no test said it was talking: keep it, as a failure would be
			o.failed = o.keepLine(o.failed, text)
		}
		return
	}
	if o.continued(text) {
		return
	}
	if m := testStartLine.FindStringSubmatch(text); m != nil {
		o.current, o.after = m[1], ""
		return
	}
	if m := testVerdictLine.FindStringSubmatch(text); m != nil {
		o.after = m[1]
		if m[1] == "FAIL" {
			for _, l := range o.pending[m[2]] {
				o.failed = keep(o.failed, l)
			}
		}
		delete(o.pending, m[2])
	}
}

// verdict takes a package's verdict line ("ok  pkg", "FAIL pkg") and
// returns the lines of its failed tests, to be read relative to the
// package; the state starts over for the next package.
func (o *testOutput) verdict(text string) (pkg string, failed []string, ok bool) {
	m := testResultLine.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return "", nil, false
	}
	if strings.HasPrefix(strings.TrimSpace(text), "FAIL") {
		failed = o.failed
	}
	*o = testOutput{}
	return m[1], failed, true
}

// rest returns the failed tests' lines still waiting for a package
// verdict that will not come (the run ended); the lines of tests that had
// no verdict of their own were cut off, not failed, and are dropped.
func (o *testOutput) rest() []string {
	failed := o.failed
	*o = testOutput{}
	return failed
}

// addTestProblem records a failed test's problem line, its path read
// relative to the package folder dir (project-relative), unless the line
// is the test's t.Log output (see logCalls). r.mu is held.
func (r *Run) addTestProblem(line, dir string) {
	if p, ok := ParseProblem(line, r.root, dir); ok && len(r.problems) < maxProblems && !r.logs.isLog(r.root, p) {
		r.problems = append(r.problems, p)
	}
}

// panicFrame is a frame of a goroutine's stack in a panic's trace:
// "\t/abs/path/file.go:12 +0x1d".
var panicFrame = regexp.MustCompile(`^\t(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)

// panicked makes a panic (a test's, or a program's) a problem: at the
// first frame of its trace in a file of the project, with the panic's own
// line as the message. It reports whether text was part of a panic. r.mu
// is held.
func (r *Run) panicked(text string) bool {
	if strings.HasPrefix(text, "panic: ") {
		if r.panicMsg == "" {
			r.panicMsg = strings.TrimSuffix(strings.TrimSuffix(text, " [recovered]"), " [recovered, repanicked]")
		}
		return true
	}
	if r.panicMsg == "" {
		return false
	}
	m := panicFrame.FindStringSubmatch(text)
	if m == nil || !filepath.IsAbs(filepath.FromSlash(m[1])) {
		inTrace := indented(text) || text == "" || strings.HasPrefix(text, "goroutine ") || strings.HasSuffix(text, ")")
		if !inTrace {
			r.panicMsg = "" // the trace ended without a frame in the project
		}
		return inTrace
	}
	rel := projectPath(m[1], r.root, "")
	if rel == filepath.ToSlash(filepath.Clean(filepath.FromSlash(m[1]))) || strings.HasPrefix(rel, "/") {
		return true // outside the project: the runtime's, the testing package's
	}
	n, _ := strconv.Atoi(m[2])
	if len(r.problems) < maxProblems {
		r.problems = append(r.problems, Problem{Path: rel, Line: n, Message: r.panicMsg})
	}
	r.panicMsg = ""
	return true
}

// problemsOf parses one output line for problems. r.mu is held.
func (r *Run) problemsOf(text string) {
	if r.panicked(text) {
		return
	}
	p, ok := ParseProblem(text, r.root, r.Task.Dir)
	if ok && !indented(text) { // build and vet errors, and other tools' file:line: lines
		if len(r.problems) < maxProblems {
			r.problems = append(r.problems, p)
		}
		return
	}
	if pkg, failed, isVerdict := r.tests.verdict(text); isVerdict {
		dir, inModule := packageDir(r.module, pkg)
		if !inModule {
			dir = r.Task.Dir
		}
		for _, l := range failed {
			r.addTestProblem(l, dir)
		}
		return
	}
	r.tests.line(text, ok)
}

// flushTestProblems records what failed tests printed when no package
// verdict followed (the run was stopped, or it is not go test). r.mu is held.
func (r *Run) flushTestProblems() {
	for _, l := range r.tests.rest() {
		r.addTestProblem(l, r.Task.Dir)
	}
}

// keep appends line to lines unless they already hold as many as a run
// keeps problems: a test that logs a million lines holds no more.
func keep(lines []string, line string) []string {
	if len(lines) >= maxProblems {
		return lines
	}
	return append(lines, line)
}

func indented(s string) bool { return s != "" && (s[0] == ' ' || s[0] == '\t') }
