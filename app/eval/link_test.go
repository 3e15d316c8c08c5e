package eval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"trestle/app/eval/evaltest"
	"trestle/app/eval/workerbuild"
	"trestle/app/projconf"
	"trestle/internal/testfix"
)

// natFiles adds to the demo module a package that needs native linking
// (it uses unsafe) and whose init writes a file into the project: the
// init must run only when an input imports the package.
var natFiles = map[string]string{
	"nat/nat.go": `package nat

import (
	"os"
	"unsafe"
)

// Ran is set by init.
var Ran bool

func init() {
	Ran = true
	os.WriteFile("nat-init-ran", []byte("ran"), 0o644)
}

// Size is the size of an int.
func Size() int { return int(unsafe.Sizeof(0)) }
`,
	"usenat/usenat.go": `package usenat

import "example.com/demo/nat"

// Twice is twice nat's answer: an interpreted package that needs nat.
func Twice() int { return 2 * nat.Size() }
`,
}

// newLinkManager is a Manager with native workers on the demo module plus
// files, waiting for the first build.
func newLinkManager(t *testing.T, files map[string]string) *Manager {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a native worker")
	}
	root := newDemo(t)
	testfix.WriteFiles(t, root, files)
	m := NewManager(ManagerOptions{
		Root: root, Module: "example.com/demo", WorkerCommand: testWorkerCommand,
		Native: true, CacheDir: evaltest.CacheDir(), BuildWait: 10 * time.Minute,
	})
	t.Cleanup(m.Close)
	return m
}

// TestNativeInitRunsOnlyOnImport (issue 20): evaluating 1+1 runs no init
// of the project's native packages; importing one (or an interpreted
// package that needs it) links it, runs its init then, and keeps the
// state defined before.
func TestNativeInitRunsOnlyOnImport(t *testing.T) {
	m := newLinkManager(t, natFiles)
	marker := filepath.Join(m.opts.Root, "nat-init-ran")
	res := evalLong(t, m, "1+1")
	wantValue(t, res, "2", "int")
	if !strings.HasPrefix(res.Worker, "native") {
		t.Fatalf("want the native worker, got %q (notes %v)", res.Worker, res.Notes)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("evaluating 1+1 ran the init of package nat, which the input never imported")
	}
	mustEval(t, m, "", "x := 40")
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a second input ran nat's init")
	}
	res = evalLong(t, m, "import \"example.com/demo/usenat\"\nusenat.Twice() + x")
	wantValue(t, res, "56", "int")
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("importing a package that needs nat did not run nat's init: %v (notes %v)", err, res.Notes)
	}
	if !slices.Contains(res.Native, "example.com/demo/nat") {
		t.Fatalf("nat is not linked natively: %v (notes %v)", res.Native, res.Notes)
	}
	wantValue(t, mustEval(t, m, "", "import \"example.com/demo/nat\"\nnat.Ran"), "true", "bool")
}

// TestWorkerFolderNeverCollides (issue 20): a project folder named like
// the worker's generated folder is not compiled into the worker.
func TestWorkerFolderNeverCollides(t *testing.T) {
	m := newLinkManager(t, map[string]string{
		"trestle_eval_worker/w.go": `package main

import "os"

func init() { os.WriteFile("worker-folder-ran", []byte("ran"), 0o644) }
`,
	})
	res := evalLong(t, m, "1+1")
	wantValue(t, res, "2", "int")
	if !strings.HasPrefix(res.Worker, "native") {
		t.Fatalf("want the native worker, got %q (notes %v)", res.Worker, res.Notes)
	}
	if _, err := os.Stat(filepath.Join(m.opts.Root, "worker-folder-ran")); err == nil {
		t.Fatal("the project's trestle_eval_worker folder was compiled into the worker")
	}
	if err := m.WaitBuild(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
}

// TestLinkFailureLeavesOnePackageOut (issue 21): a dependency whose table
// does not link (an exported function refers to a symbol defined nowhere,
// as modernc.org/libc's X__libc_sigaction; a normal build drops the
// function) costs only its own table: the worker is native, the package
// that imports it answers natively, and the answer says in one line what
// was left out.
func TestLinkFailureLeavesOnePackageOut(t *testing.T) {
	mods := t.TempDir()
	testfix.WriteFiles(t, mods, map[string]string{
		"bad/go.mod": "module example.com/bad\n\ngo 1.22\n",
		"bad/bad.go": `package bad

import _ "unsafe"

// Fine works.
func Fine() int { return 41 + 1 }

// Broken refers to a function defined nowhere; nothing calls it.
func Broken() { sigaction() }

//go:linkname sigaction example.com/bad.x__libc_sigaction
func sigaction()
`,
		"good/go.mod": "module example.com/good\n\ngo 1.22\n\nrequire example.com/bad v0.0.0\n",
		"good/good.go": `package good

import "example.com/bad"

// Answer asks bad.
func Answer() int { return bad.Fine() }
`,
	})
	files := map[string]string{
		"go.mod": demoFiles["go.mod"] + "\nrequire (\n\texample.com/bad v0.0.0\n\texample.com/good v0.0.0\n)\n\n" +
			"replace example.com/bad => " + filepath.Join(mods, "bad") + "\n\nreplace example.com/good => " + filepath.Join(mods, "good") + "\n",
		"usegood/usegood.go": "package usegood\n\nimport \"example.com/good\"\n\n// A is good's answer.\nfunc A() int { return good.Answer() }\n",
	}
	m := newLinkManager(t, files)
	res := evalLong(t, m, "import \"example.com/good\"\ngood.Answer()")
	wantValue(t, res, "42", "int")
	if !strings.HasPrefix(res.Worker, "native") || !slices.Contains(res.Native, "example.com/good") {
		t.Fatalf("want a native worker linking example.com/good, got %q %v (notes %v)", res.Worker, res.Native, res.Notes)
	}
	var line string
	for _, n := range res.Notes {
		if strings.HasPrefix(n, "partial native build: example.com/bad") {
			line = n
		}
	}
	if line == "" || strings.Contains(line, "\n") || len(line) > 400 || !strings.Contains(line, "did not link") {
		t.Fatalf("want one short line saying example.com/bad's table did not link, got notes %q", res.Notes)
	}
	if len(res.LeftOut) != 1 || !strings.HasPrefix(res.LeftOut[0], "example.com/bad") {
		t.Fatalf("LeftOut %q", res.LeftOut)
	}
	res = mustEval(t, m, "", "import \"example.com/good\"\ngood.Answer() + 1")
	wantValue(t, res, "43", "int")
	// every answer of the partial worker says so, in one line
	if n := slices.IndexFunc(res.Notes, func(n string) bool { return strings.HasPrefix(n, "partial native build: example.com/bad") }); n < 0 || len(res.LeftOut) != 1 {
		t.Fatalf("a later answer does not say what was left out: notes %q, LeftOut %q", res.Notes, res.LeftOut)
	}
	if slices.ContainsFunc(res.Notes, func(n string) bool { return strings.HasPrefix(n, "linked ") }) {
		t.Fatalf("the same imports linked a worker again: %q", res.Notes)
	}
}

// TestCompileChoiceComesFromTheTrace (issue 21): after an interpreter
// panic, the packages compiled in are the ones its trace passes through,
// not every project package an earlier input imported.
func TestCompileChoiceComesFromTheTrace(t *testing.T) {
	m := NewManager(ManagerOptions{Root: t.TempDir(), WorkerCommand: testWorkerCommand, Native: true, CacheDir: t.TempDir()})
	t.Cleanup(m.Close)
	ns := m.native("default")
	ns.plan = &workerbuild.Plan{Packages: []workerbuild.Package{
		{Path: "example.com/p/coll", Mode: workerbuild.ModeInterpreted},
		{Path: "example.com/p/bank", Mode: workerbuild.ModeInterpreted},
		{Path: "example.com/p/render", Mode: workerbuild.ModeInterpreted},
	}}
	history := []string{"import \"example.com/p/coll\"\ns := coll.Stack[int]{}", "import \"example.com/p/bank\""}
	trace := "/tmp/trestle-eval-1-2/gopath-2/src/example.com/p/render/render.go:162:8: panic: example.com/p/render.Render(...)\n4:1: panic: main(...)\n"
	m.compileUninterpretable("default", "import \"example.com/p/render\"\nrender.Render()", history,
		Result{Mode: ModeInterpreted, Err: "panic: reflect: call of reflect.Value.Interface on zero Value", trace: trace})
	if len(ns.compile) != 1 || ns.compile["example.com/p/render"] == "" {
		t.Fatalf("compile set %v: want only example.com/p/render (the trace's)", ns.compile)
	}
}

// TestCompileChoiceIsKeptOnlyWhileItHolds (issue 21): the next start of
// Trestle compiles in a package the interpreter failed on only while its
// source is what failed.
func TestCompileChoiceIsKeptOnlyWhileItHolds(t *testing.T) {
	root := t.TempDir()
	testfix.WriteFiles(t, root, map[string]string{"render/render.go": "package render\n\nfunc Render() {}\n"})
	cache := t.TempDir()
	m := NewManager(ManagerOptions{Root: root, Native: true, CacheDir: cache})
	ns := m.native("default")
	ns.plan = &workerbuild.Plan{Packages: []workerbuild.Package{{Path: "example.com/p/render", Mode: workerbuild.ModeInterpreted, Dir: filepath.Join(root, "render")}}}
	ns.compile = map[string]string{"example.com/p/render": "reflect: slice index out of range"}
	bin := filepath.Join(t.TempDir(), "worker")
	os.WriteFile(bin, []byte("x"), 0o755)
	m.saveRecord("default", bin)
	m.Close()

	if got := m.loadRecord("default").stillFailing(); got["example.com/p/render"] == "" {
		t.Fatalf("an unchanged package lost its compile-in choice: %v", got)
	}
	testfix.WriteFiles(t, root, map[string]string{"render/render.go": "package render\n\n// Render renders.\nfunc Render() {}\n"})
	if got := m.loadRecord("default").stillFailing(); len(got) != 0 {
		t.Fatalf("an edited package kept its compile-in choice: %v", got)
	}
}

// TestFailedBuildIsOneLineInEveryAnswer (issue 21): while the selection's
// native build has failed, every answer of the fallback says so in one
// short line (the cause, not the whole output).
func TestFailedBuildIsOneLineInEveryAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a native build")
	}
	root := t.TempDir()
	testfix.WriteFiles(t, root, map[string]string{
		"go.mod": "module example.com/gone\n\ngo 1.22\n",
	})
	// The selection's GOFLAGS are wrong: every go command of the native
	// build fails before it starts, and the interpreter serves.
	m := NewManager(ManagerOptions{
		Root: root, Module: "example.com/gone", WorkerCommand: testWorkerCommand,
		Selections: map[string]projconf.Selection{"default": {Env: map[string]string{"GOFLAGS": "-mod=nonsense"}}},
		Native:     true, CacheDir: t.TempDir(), BuildWait: 10 * time.Minute,
	})
	t.Cleanup(m.Close)
	for _, code := range []string{"1+1", "2+2", "3+3"} {
		res := evalLong(t, m, code)
		var line string
		for _, n := range res.Notes {
			if strings.HasPrefix(n, "native build failed: ") {
				line = n
			}
		}
		if line == "" || strings.Contains(line, "\n") || len(line) > 500 {
			t.Fatalf("%s: want one short line saying the native build failed, got notes %q (worker %q)", code, res.Notes, res.Worker)
		}
		t.Logf("%s: %s", code, line)
	}
	// and the status bar's line (Status) says so too, ending in the cause
	if st := m.Status()[0].Native; !strings.HasPrefix(st, "native build failed: ") || strings.Contains(st, "\n") || len(st) > 200 || !strings.Contains(st, "nonsense") {
		t.Fatalf("status %q, want one short line saying the native build failed and why", st)
	}
}

// TestStateSurvivesTheSwitchToNative (issue 21): when the native worker
// is ready while the interpreter fallback holds state, the native worker
// takes over at the next input and the state-defining inputs run again in
// it first.
func TestStateSurvivesTheSwitchToNative(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a native worker")
	}
	m := NewManager(ManagerOptions{
		Root: newDemo(t), Module: "example.com/demo", WorkerCommand: testWorkerCommand,
		Native: true, CacheDir: evaltest.CacheDir(), // no BuildWait: the fallback answers first
	})
	t.Cleanup(m.Close)
	res := mustEval(t, m, "", "x := 21")
	if res.Worker != "interpreter" {
		t.Fatalf("the first input should be the fallback's, got %q", res.Worker)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := m.WaitBuild(ctx, ""); err != nil {
		t.Fatal(err)
	}
	res = mustEval(t, m, "", "x * 2")
	wantValue(t, res, "42", "int")
	if !strings.HasPrefix(res.Worker, "native") {
		t.Fatalf("the native worker should take over with the state, got %q (notes %v)", res.Worker, res.Notes)
	}
}

// TestErrorsReadLikeGo (issue 21): a missing module, a misspelt standard
// package and a missing project folder read as the go command says them,
// with positions in the input only; a nil pointer, an index or a slice
// out of range as the Go runtime says them.
func TestErrorsReadLikeGo(t *testing.T) {
	m := newTestManager(t, nil)
	res := mustEval(t, m, "", "import \"github.com/nobody/nothing\"\nnothing.X")
	if !strings.Contains(res.Err, "no required module provides package github.com/nobody/nothing; to add it: go get github.com/nobody/nothing") || strings.Contains(res.Err, "unable to find source") {
		t.Errorf("a missing module: %q", res.Err)
	}
	res = mustEval(t, m, "", "import \"fmtt\"\nfmtt.Println(1)")
	if !strings.Contains(res.Err, "package fmtt is not in std") || strings.Contains(res.Err, ".trestle-eval-compiled") {
		t.Errorf("a misspelt standard package: %q", res.Err)
	}
	// the interpreter's runtime errors panic inside reflect: Go's words
	for in, want := range map[string]string{
		"var pn *struct{ N int }\npn.N":        "panic: runtime error: invalid memory address or nil pointer dereference",
		"xo := []int{1}\nio := 5\nxo[io]":      "panic: runtime error: index out of range",
		"sb := []int{1, 2}\nhi := 5\nsb[1:hi]": "panic: runtime error: slice bounds out of range",
	} {
		if res := mustEval(t, m, "", in); !strings.HasPrefix(res.Err, want) || strings.Contains(res.Err, "reflect") {
			t.Errorf("%q: %q, want %q", in, res.Err, want)
		}
	}
}

// TestNewDependencyIsLinkedWithoutARestart (issue 21): a dependency added
// to go.mod while the evaluator runs is linked natively at the next input
// that imports it, and the state defined before survives.
func TestNewDependencyIsLinkedWithoutARestart(t *testing.T) {
	m := newLinkManager(t, nil)
	wantValue(t, evalLong(t, m, "x := 2\nx"), "2", "int")
	trestle, _ := filepath.Abs("../..")
	mod, err := os.ReadFile(filepath.Join(trestle, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(trestle, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	var req []string
	goLine := "go 1.22"
	for _, line := range strings.Split(string(mod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && (f[0] == "github.com/fsnotify/fsnotify" || f[0] == "golang.org/x/sys") {
			req = append(req, "require "+f[0]+" "+f[1])
		} else if len(f) == 2 && f[0] == "go" {
			goLine = line // a module may not require one whose go line is newer than its own
		}
	}
	if len(req) != 2 {
		t.Fatalf("trestle's go.mod does not require fsnotify and x/sys: %v", req)
	}
	testfix.WriteFiles(t, m.opts.Root, map[string]string{
		"go.mod":     strings.Replace(demoFiles["go.mod"], "go 1.22", goLine, 1) + strings.Join(req, "\n") + "\n",
		"go.sum":     demoFiles["go.sum"] + string(sum),
		"watch/w.go": "package watch\n\nimport \"github.com/fsnotify/fsnotify\"\n\n// Op is an op.\nvar Op = fsnotify.Create\n",
	})
	res := evalLong(t, m, "import \"github.com/fsnotify/fsnotify\"\nlen(fsnotify.Create.String()) + x")
	if res.Err != "" {
		t.Logf("build: %v", m.WaitBuild(context.Background(), ""))
	}
	wantValue(t, res, "8", "int")
	if !slices.Contains(res.Native, "github.com/fsnotify/fsnotify") {
		t.Fatalf("fsnotify is not linked natively: %q %v (notes %v)", res.Worker, res.Native, res.Notes)
	}
}

// TestPreloadLinksAtStart (issue 20): a selection that preloads a native
// project package starts a worker that links it: its init runs once.
func TestPreloadLinksAtStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a native worker")
	}
	root := newDemo(t)
	files := map[string]string{
		"nat/nat.go": strings.Replace(natFiles["nat/nat.go"], `os.WriteFile("nat-init-ran", []byte("ran"), 0o644)`,
			`f, _ := os.OpenFile("nat-init-ran", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); f.WriteString("ran\n"); f.Close()`, 1),
	}
	testfix.WriteFiles(t, root, files)
	m := NewManager(ManagerOptions{
		Root: root, Module: "example.com/demo", WorkerCommand: testWorkerCommand,
		Selections: map[string]projconf.Selection{"default": {Preload: []string{"example.com/demo/nat"}}},
		Native:     true, CacheDir: evaltest.CacheDir(), BuildWait: 10 * time.Minute,
	})
	t.Cleanup(m.Close)
	res := evalLong(t, m, "nat.Size()")
	wantValue(t, res, "8", "int")
	if !slices.Contains(res.Native, "example.com/demo/nat") {
		t.Fatalf("the preloaded nat is not linked: %q %v (notes %v)", res.Worker, res.Native, res.Notes)
	}
	data, _ := os.ReadFile(filepath.Join(root, "nat-init-ran"))
	if n := strings.Count(string(data), "ran"); n != 1 {
		t.Fatalf("nat's init ran %d times, want once", n)
	}
}
