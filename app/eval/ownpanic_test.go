package eval

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"trestle/app/eval/evaltest"
	"trestle/internal/testfix"
)

// buggyFiles is a project package with the bugs a person's code has: each
// func panics as go run panics, in the interpreter's reflect machinery
// (an index, a nil pointer), inside linked code (reflect itself) or by
// the program's own panic call, whatever its words. It declares no type,
// so that the interpreter runs it (a declared type sends inputs compiled).
var buggyFiles = map[string]string{"buggy/buggy.go": `package buggy

import "reflect"

// Fine is what works.
func Fine() int { return 42 }

// Fill writes to a nil map.
func Fill() int { var m map[string]int; m["a"] = 1; return len(m) }

// At is the i-th of two.
func At(i int) int { xs := []int{1, 2}; return xs[i] }

// Check rejects what it is given.
func Check(s string) string {
	if s != "ok" {
		panic("bad input: " + s)
	}
	return s
}

// Deref reads through a nil pointer.
func Deref() int { var p *struct{ X int }; return p.X }

// Field is a field the struct lacks.
func Field() any { return reflect.ValueOf(struct{ X int }{}).Field(3).Interface() }

// Divide divides by d.
func Divide(d int) int { return 10 / d }

// Words panics with the interpreter's own words.
func Words() int { panic("nil type") }

// Down recurses without end.
func Down(n int) int { return Down(n+1) + 1 }
`}

// buggyPanics call buggyFiles' funcs.
var buggyPanics = []agreeCase{
	{"nil map write", []string{"example.com/demo/buggy"}, "", "buggy.Fill()"},
	{"index out of range", []string{"example.com/demo/buggy"}, "", "buggy.At(5)"},
	{"explicit panic", []string{"example.com/demo/buggy"}, "", `buggy.Check("x")`},
	{"nil pointer dereference", []string{"example.com/demo/buggy"}, "", "buggy.Deref()"},
	{"reflect's own panic", []string{"example.com/demo/buggy"}, "", "buggy.Field()"},
	{"integer divide by zero", []string{"example.com/demo/buggy"}, "", "buggy.Divide(0)"},
	{"a panic in the interpreter's words", []string{"example.com/demo/buggy"}, "", "buggy.Words()"},
	{"the input's own panic in the interpreter's words", []string{"example.com/demo/buggy"},
		"nP := buggy.Fine()\n_ = nP\npanic(\"reflect: my own words\")", "1"},
}

// TestProgramsOwnPanicsCompileNothingIn (issue 21): a person's own bug in
// interpreted project code on the native worker (a nil map write, an
// index out of range, panic("bad input"), a nil pointer, a panic inside
// reflect, even panic("nil type") and an endless recursion that kills
// the worker) gives go run's panic and marks nothing "compile in": the
// package stays interpreted and the next input runs as before. On the
// old code an index out of range (yaegi's "reflect: slice index out of
// range") asked for a rebuild with the package compiled in, kept in the
// per-user record.
func TestProgramsOwnPanicsCompileNothingIn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a native worker and runs go")
	}
	root := newDemo(t)
	testfix.WriteFiles(t, root, buggyFiles)
	want := goRunIn(t, root, buggyPanics)
	m := NewManager(ManagerOptions{Root: root, Module: "example.com/demo", WorkerCommand: testWorkerCommand,
		Native: true, CacheDir: evaltest.CacheDir(), BuildWait: 10 * time.Minute})
	t.Cleanup(m.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	fine := func(when string) {
		t.Helper()
		res, err := m.Eval(ctx, "", "import \"example.com/demo/buggy\"\nbuggy.Fine()", time.Minute)
		if err != nil || res.Value != "42" || res.Mode != ModeInterpreted || !strings.HasPrefix(res.Worker, "native ") {
			t.Fatalf("%s: %v, %q (%s, %s worker), notes %v; want 42 interpreted on the native worker", when, err, res.Value, res.Mode, res.Worker, res.Notes)
		}
	}
	marked := func() map[string]string {
		ns := m.native("default")
		ns.mu.Lock()
		defer ns.mu.Unlock()
		return ns.compile
	}
	askedRebuild := func(notes []string) bool {
		return slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, "compiled into the native evaluator") })
	}
	fine("before")
	for i, c := range buggyPanics {
		res, err := m.Eval(ctx, "", c.input(), time.Minute)
		if err != nil {
			t.Fatalf("%s: %v (notes %v)", c.name, err, res.Notes)
		}
		first, _, _ := strings.Cut(res.Err, "\n")
		goFirst, _, _ := strings.Cut(want[i].Err, "\n")
		goFirst = goDetail.ReplaceAllString(goFirst, "") // the interpreter cannot know index and length
		if res.Mode != ModeInterpreted || first != goFirst {
			t.Errorf("%s: %q (%s), go run: %q", c.name, first, res.Mode, want[i].Err)
		}
		if askedRebuild(res.Notes) || len(marked()) > 0 {
			t.Errorf("%s: the program's own panic marked %v compile in (notes %v)", c.name, marked(), res.Notes)
		}
	}
	fine("after the panics")

	// The endless recursion kills the worker, as it ends go run.
	res, err := m.Eval(ctx, "", "import \"example.com/demo/buggy\"\nbuggy.Down(0)", time.Minute)
	if !errors.Is(err, ErrDied) || !strings.Contains(err.Error(), "fatal error: stack overflow") {
		t.Fatalf("endless recursion: %v, %+v; want the worker dead of a stack overflow", err, res)
	}
	if askedRebuild(res.Notes) || len(marked()) > 0 {
		t.Errorf("endless recursion marked %v compile in (notes %v)", marked(), res.Notes)
	}
	fine("after the recursion")
	pkgs, err := m.Packages(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		if p.Path == "example.com/demo/buggy" && p.Mode != "interpreted" {
			t.Errorf("%s: %s (%s), want interpreted", p.Path, p.Mode, p.Reason)
		}
	}
}
