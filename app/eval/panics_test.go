package eval

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// unrecoveredPanics are inputs that panic and do not recover, as a Go
// developer meets them: the runtime's errors, a panic of the input's own
// and one inside a project function the interpreter runs from source.
var unrecoveredPanics = []agreeCase{
	{"index out of range", nil, "sP := []int{1, 2, 3}\niP := 5", "sP[iP]"},
	{"nil map write", nil, "var mP map[string]int\nmP[\"a\"] = 1", "len(mP)"},
	{"nil pointer dereference", nil, "var pP *struct{ X int }", "pP.X"},
	{"a nil pointer's value", nil, "var pI *int", "*pI"},
	{"a pointer's value (a control)", nil, "vV := 4\npV := &vV", "(*pV)"},
	{"a nil pointer read into a variable", nil, "var pJ *int\nvJ := *pJ", "vJ"},
	{"a write through a nil pointer", nil, "var pK *int\n*pK = 3", "1"},
	{"an index through a nil array pointer", nil, "var pM *[3]int", "pM[1]"},
	{"integer divide by zero", nil, "zP := 0", "1 / zP"},
	{"failed type assertion", nil, "var aP any = \"s\"", "aP.(int)"},
	{"slice bounds out of range", nil, "sQ := []int{1, 2, 3}\njQ := 5", "sQ[1:jQ]"},
	{"index of a string", nil, "sS := \"abc\"\niS := 7", "sS[iS]"},
	{"call of a nil func", nil, "var fN func()\nfN()", "1"},
	{"slice to a longer array", nil, "sA := []int{1, 2, 3}", "[4]int(sA)"},
	{"make with a negative length", nil, "nM := -1", "len(make([]int, nM))"},
	{"make of a channel with a negative size", nil, "nC := -1", "cap(make(chan int, nC))"},
	{"close of closed channel", nil, "cP := make(chan int)\nclose(cP)\nclose(cP)", "1"},
	{"panic with an error", []string{"errors"}, "panic(errors.New(\"x\"))", "1"},
	{"panic with a formatted string", nil, "panic(fmt.Sprintf(\"bad %d of %s\", 3, \"y\"))", "1"},
	{"panic(nil)", nil, "panic(nil)", "1"},
	{"a print, then a panic", nil, "fmt.Println(\"before\")\nfmt.Print(\"no newline\")\npanic(\"after\")", "1"},
	{"a panic in a project function", []string{agreeModule + "/oops"}, "", "oops.Third([]int{1, 2})"},
	{"a project function's panic recovered", []string{agreeModule + "/oops"}, "", "oops.Safe()"},
}

// oopsFiles is a project package that panics, interpreted from source.
var oopsFiles = map[string]string{"oops/oops.go": `package oops

// Third is xs[2].
func Third(xs []int) int { return xs[2] }

func boom() { panic("boom") }

// Fill writes to a nil map.
func Fill() {
	var m map[string]int
	m["a"] = 1
}

// Safe is whether it recovered from boom.
func Safe() (ok bool) {
	defer func() { ok = recover() != nil }()
	boom()
	return false
}
`}

// goDetail is what Go's runtime error says that the interpreter cannot
// know: yaegi indexes through reflect, whose panic carries neither the
// index nor the length.
var goDetail = regexp.MustCompile(` \[[^\]]*\] with (length|capacity) \d+`)

// atInputLine is where in the person's input a compiled panic was.
var atInputLine = regexp.MustCompile(` \(at input line \d+\)$`)

// TestUnrecoveredPanicsReadAsGoRun: an input that panics gives the error
// `go run` of the same code gives ("panic: runtime error: integer divide by
// zero", "panic: interface conversion: interface {} is string, not int"),
// without a position of the interpreter's, and what it printed before, with
// none of the interpreter's trace lines ("1:34: panic: main(...)"). Where
// the interpreter cannot know the index and length of Go's "index out of
// range [5] with length 3", the error is Go's without them.
func TestUnrecoveredPanicsReadAsGoRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go")
	}
	root := writeAgreeModule(t)
	testfix.WriteFiles(t, root, oopsFiles)
	want := goRunIn(t, root, unrecoveredPanics)
	m := NewManager(ManagerOptions{Root: root, Module: agreeModule, WorkerCommand: testWorkerCommand})
	t.Cleanup(m.Close)
	mustEval(t, m, "", "import \"fmt\"")
	for i, c := range unrecoveredPanics {
		res, err := m.Eval(context.Background(), "", c.input(), time.Minute)
		if err != nil {
			t.Fatalf("%s: %v (notes %v)", c.name, err, res.Notes)
		}
		// The first line is Go's; the frames below it are the dependencies'
		// (or, compiled, the input's: "main.main(...) input:2").
		first, _, _ := strings.Cut(res.Err, "\n")
		got := goRunResult{Value: res.Value, Type: res.Type, Err: atInputLine.ReplaceAllString(first, ""), Output: res.Output}
		w := want[i]
		if res.Mode == ModeInterpreted {
			w.Err = goDetail.ReplaceAllString(w.Err, "")
		}
		if got != w {
			t.Errorf("%s: evaluator (%s): %+v\ngo run: %+v\nnotes %v", c.name, res.Mode, got, want[i], res.Notes)
		}
		if slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, ":1:") }) {
			t.Errorf("%s: a note names the interpreter's wrapper: %v", c.name, res.Notes)
		}
	}
}

// TestPanicInAGoroutineReadsAsGoRun: an interpreted function that panics
// in a goroutine ends the evaluator, as it ends a program; the answer says
// so with the panic's line as go run prints it, without the
// "[recovered, repanicked]" that the interpreter's re-panic at each frame
// adds to Go's own report.
func TestPanicInAGoroutineReadsAsGoRun(t *testing.T) {
	root := writeAgreeModule(t)
	testfix.WriteFiles(t, root, oopsFiles)
	m := NewManager(ManagerOptions{Root: root, Module: agreeModule, WorkerCommand: testWorkerCommand})
	t.Cleanup(m.Close)
	res, err := m.Eval(context.Background(), "", "import \""+agreeModule+"/oops\"\ngo oops.Fill()\nselect {}", time.Minute)
	if err == nil {
		t.Fatalf("the evaluator lived on: %+v", res)
	}
	const want = "it said: panic: assignment to entry in nil map:"
	if !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "[recovered") {
		t.Fatalf("got %q, want it to say %q", err, want)
	}
}
