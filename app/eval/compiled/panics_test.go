package compiled

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// panicDecls are the declarations the panic cases use, at the package
// level of both programs.
const panicDecls = `type myType int
type S string
type F float64
type C complex128
type T struct {
	A int
	B string
}
type E struct{}

func (E) Error() string { return "E!" }

type St struct{ n int }

func (s St) String() string { return fmt.Sprintf("St#%d", s.n) }

type Boom struct{}

func (Boom) Error() string { panic("boom") }

type NilErr struct{ msg string }

func (e *NilErr) Error() string { return e.msg }
`

// panicCases end in a panic nothing recovers, each with a value the
// runtime prints in its own way.
var panicCases = []panicCase{
	{"a named int", "panic(myType(3))"},
	{"a named string", `panic(S("x"))`},
	{"a named string of two lines", `panic(S("x\ny"))`},
	{"a struct", `panic(T{1, "x"})`},
	{"a pointer to a struct", `panic(&T{1, "x"})`},
	{"a pointer printed first", "p := &T{}\nfmt.Printf(\"%p\\n\", p)\npanic(p)"},
	{"an empty struct", "panic(struct{}{})"},
	{"a map", `panic(map[string]int{"a": 1})`},
	{"a slice", "panic([]int{1, 2})"},
	{"an error type", "panic(E{})"},
	{"a Stringer", "panic(St{4})"},
	{"a Stringer of the standard library", "panic(time.Second)"},
	{"a float", "panic(1.5)"},
	{"a float32", "panic(float32(0.1))"},
	{"a named float", "panic(F(2.5))"},
	{"a complex", "panic(complex(1, 2))"},
	{"a named complex", "panic(C(complex(1, -2)))"},
	{"a bool", "panic(true)"},
	{"a byte", "panic(byte(200))"},
	{"a string", `panic("x")`},
	{"a string of two lines", `panic("line one\nline two")`},
	{"an index out of range", "a := []int{1, 2, 3}\ni := 5\n_ = a[i]"},
	{"a nil pointer", "var p *T\n_ = p.A"},
	{"errors.New", `panic(errors.New("x"))`},
	{"a wrapped error of two lines", `panic(fmt.Errorf("wrap: %w", errors.New("a\nb")))`},
	{"panic(nil)", "panic(nil)"},
	{"a type of the function", "type L int\npanic(L(7))"},
	{"an Error method that panics", "panic(Boom{})"},
	{"an Error method on a nil pointer", "var e *NilErr\npanic(e)"},
}

type panicCase struct{ name, body string }

// caseEnv selects the case the compiled program runs.
const caseEnv = "TRESTLE_PANIC_CASE"

// address is a pointer as the runtime prints it.
var address = regexp.MustCompile(`\b0x[0-9a-f]+\b`)

// TestRunCompiledPanicsReadAsGoRun: an unrecovered panic in compiled input
// reads as go run's report of the same code, after the same output,
// addresses aside (a printed pointer is the one the panic names): a named
// type's value as main.myType(3), a composite as (main.T) 0x…, an error's
// and a Stringer's text, floats as the toolchain's runtime prints them,
// runtime errors with their numbers, multi-line texts indented, and Go's
// fatal error when the value's Error method panics.
//
// One input holds every case behind a switch on caseEnv; without a case
// it panics with myType(4), through Run. Then the program Run built runs
// once per case as Run runs it (execute), so one build serves them all.
// The float forms of Go before 1.26 and the choice by the runtime's
// version (texts indented since Go 1.23), which this toolchain cannot
// show by panicking, are checked by calling the generated functions.
func TestRunCompiledPanicsReadAsGoRun(t *testing.T) {
	goRun := goRunPanicReports(t, "1.23", panicCases)
	s, _ := newSession(t)
	var in strings.Builder
	in.WriteString("import \"errors\"\nimport \"fmt\"\nimport \"os\"\nimport \"time\"\n" + panicDecls)
	fmt.Fprintf(&in, "switch os.Getenv(%q) {\n", caseEnv)
	for i, c := range panicCases {
		fmt.Fprintf(&in, "case %q:\n%s\n", strconv.Itoa(i), c.body)
	}
	in.WriteString("default:\npanic(myType(4))\n}")
	res := run(t, s, in.String())
	if report, _, _ := strings.Cut(res.Err, "\n\ngoroutine "); report != fmt.Sprintf("panic: main.myType(4) (at input line %d)", strings.Count(in.String(), "\n")) {
		t.Errorf("Run's panic: %q", res.Err)
	}

	bin := filepath.Join(s.dir, "program")
	for i, c := range panicCases {
		s.opts.Env = map[string]string{caseEnv: strconv.Itoa(i)}
		var r Result
		s.execute(context.Background(), s.dir, bin, time.Minute, false, &r)
		report, _, _ := strings.Cut(r.Err, "\n\ngoroutine ")
		report = r.Output + inputLine.ReplaceAllString(report, "")
		if addrs := address.FindAllString(report, -1); strings.HasPrefix(c.name, "a pointer printed") && (len(addrs) != 2 || addrs[0] != addrs[1]) {
			t.Errorf("%s: the panic does not name the pointer the input printed: %q", c.name, report)
		}
		if got := address.ReplaceAllString(report, "0xADDR"); got != goRun[i] {
			t.Errorf("%s:\ncompiled: %q (answer %+v)\ngo run:   %q", c.name, got, r, goRun[i])
		}
	}
	s.opts.Env = nil

	res = run(t, s, `import "math"
[]any{__trestlePrintFloat(1.5, 64, false), __trestlePrintFloat(float64(float32(-93.7)), 32, false),
	__trestlePrintFloat(1e-7, 64, false), __trestlePrintFloat(0, 64, false), __trestlePrintFloat(math.Copysign(0, -1), 64, false),
	__trestlePrintComplex(complex(32.1, 10), 128, false), __trestlePrintComplex(complex(1, -2), 128, true),
	__trestleRuntimeAtLeast("go1.25.3", 26), __trestleRuntimeAtLeast("go1.9", 26), __trestleRuntimeAtLeast("go1.26rc1", 26),
	__trestleRuntimeAtLeast("go1.26.8 X:nodwarf5", 26), __trestleRuntimeAtLeast("devel go1.27-abcdef Mon Jan 1", 26), __trestleRuntimeAtLeast("go1.100", 26),
	__trestleRuntimeAtLeast("go1.22.12", 23), __trestleRuntimeAtLeast("go1.23.0", 23)}`)
	// Go 1.25's runtime/panic_test.go: "panic: main.MyFloat64(-9.370000e+001)"
	want(t, res, "[+1.500000e+000 -9.370000e+001 +1.000000e-007 +0.000000e+000 -0.000000e+000 (+3.210000e+001+1.000000e+001i) (1-2i) false false true true true true false true]", "[]interface {}")
}

// inputLine is where the evaluator says the input panicked; go run's
// report says it in its goroutine list.
var inputLine = regexp.MustCompile(` \(at input line \d+\)$`)

// goRunPanicReports builds one program in a module of goLine with
// panicDecls and a function per case, runs each case in a process of its own, and returns each report's
// first lines as go run prints them, after what the case printed, up to
// the goroutine list, without the signal line and with addresses masked.
func goRunPanicReports(t *testing.T, goLine string, cases []panicCase) []string {
	t.Helper()
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString("package main\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n\t\"os\"\n\t\"strconv\"\n\t\"time\"\n)\n\n")
	src.WriteString("var _, _, _ = errors.New, fmt.Sprint, time.Now\n\n" + panicDecls)
	src.WriteString("\nfunc main() {\n\ti, _ := strconv.Atoi(os.Args[1])\n\tswitch i {\n")
	for i := range cases {
		fmt.Fprintf(&src, "\tcase %d:\n\t\tcase%d()\n", i, i)
	}
	src.WriteString("\t}\n}\n")
	for i, c := range cases {
		fmt.Fprintf(&src, "\nfunc case%d() {\n%s\n}\n", i, c.body)
	}
	files := map[string]string{"go.mod": "module gorunpanic\n\ngo " + goLine + "\n", "main.go": src.String()}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "gorunpanic")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s\n%s", err, out, src.String())
	}
	reports := make([]string, len(cases))
	for i, c := range cases {
		var out bytes.Buffer
		cmd := exec.Command(bin, strconv.Itoa(i))
		cmd.Env = append(os.Environ(), "GOTRACEBACK=single") // the default: the report ends at the goroutine list
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err == nil {
			t.Fatalf("%s: go run did not panic: %q", c.name, out.String())
		}
		report, _, ok := strings.Cut(out.String(), "\n\ngoroutine ")
		if !ok {
			t.Fatalf("%s: no goroutine list in what go run printed: %q", c.name, out.String())
		}
		if i := strings.Index(report, "\n[signal "); i >= 0 {
			report = report[:i]
		}
		reports[i] = address.ReplaceAllString(report, "0xADDR")
	}
	return reports
}

// TestRunCompiledPanicNilInAnOldModule: in a module whose go line is
// before 1.21, panic(nil) makes recover return nil (GODEBUG panicnil=1),
// and go run reports "panic: nil"; the compiled input must not read as
// one that ran without error.
func TestRunCompiledPanicNilInAnOldModule(t *testing.T) {
	goRun := goRunPanicReports(t, "1.20", []panicCase{{"panic(nil)", "panic(nil)"}})
	root := writeModule(t, map[string]string{"go.mod": "module example.com/old\n\ngo 1.20\n"})
	s := New(Options{Root: root})
	t.Cleanup(s.Close)
	res := run(t, s, "x := 1\npanic(nil)\n_ = x")
	if report, _, _ := strings.Cut(res.Err, "\n\ngoroutine "); report != goRun[0]+" (at input line 2)" {
		t.Errorf("compiled: %+v\ngo run: %q", res, goRun[0])
	}
}
