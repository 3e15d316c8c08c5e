package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"trestle/app/eval/evaltest"
	"trestle/app/eval/workerbuild"
	"trestle/internal/testfix"
)

// boltRoundTrip is evaluator input that puts value in a new bbolt file at
// path, reads it back and closes the file: the value and the error
// ("v<nil>").
func boltRoundTrip(path, value string) string {
	return `import bolt "go.etcd.io/bbolt"
db, err := bolt.Open(` + fmt.Sprintf("%q", path) + `, 0o600, nil)
if err != nil { panic(err) }
var got string
err = db.Update(func(tx *bolt.Tx) error {
	b, err := tx.CreateBucketIfNotExists([]byte("b"))
	if err != nil { return err }
	if err := b.Put([]byte("k"), []byte(` + fmt.Sprintf("%q", value) + `)); err != nil { return err }
	got = string(b.Get([]byte("k")))
	return nil
})
db.Close()
got + fmt.Sprint(err)`
}

// fsnotifyCreate is evaluator input that watches dir, creates name in it
// and gives the event's file name and whether it was a Create
// ("name true"), or "no event" after 10 s. It assigns err rather than
// declaring it again in the if: an inner err := sends the input to the
// compiled path (yaegi would take it for the outer err), and callers check
// the native worker runs it.
func fsnotifyCreate(dir, name string) string {
	return `import "github.com/fsnotify/fsnotify"
w, err := fsnotify.NewWatcher()
if err != nil { panic(err) }
if err = w.Add(` + fmt.Sprintf("%q", dir) + `); err != nil { panic(err) }
os.WriteFile(` + fmt.Sprintf("%q", filepath.Join(dir, name)) + `, []byte("x"), 0o644)
var seen string
select {
case ev := <-w.Events:
	seen = filepath.Base(ev.Name) + " " + fmt.Sprint(ev.Has(fsnotify.Create))
case <-time.After(10 * time.Second):
	seen = "no event"
}
w.Close()
seen`
}

// realModuleManager is a native evaluator on a copy of module mod from the
// module cache, closed by cleanup.
func realModuleManager(t *testing.T, mod string) *Manager {
	t.Helper()
	m := NewManager(ManagerOptions{
		Root: testfix.CopyModule(t, mod), Module: mod, WorkerCommand: testWorkerCommand,
		Native: true, CacheDir: evaltest.CacheDir(), BuildWait: 10 * time.Minute,
	})
	t.Cleanup(m.Close)
	return m
}

// TestOpenedOnRealModules opens the evaluator on copies of bbolt and
// fsnotify themselves (the first report: `import "unsafe" error`
// from both): the module's own package, which uses unsafe and x/sys, is
// compiled into the worker, and calls work.
func TestOpenedOnRealModules(t *testing.T) {
	if testing.Short() {
		t.Skip("builds native workers")
	}
	dir := t.TempDir()
	tests := []struct{ module, code, value, typ string }{
		{"go.etcd.io/bbolt", boltRoundTrip(filepath.Join(dir, "own.db"), "own"), `"own<nil>"`, "string"},
		{"github.com/fsnotify/fsnotify", fsnotifyCreate(dir, "own.txt"), `"own.txt true"`, "string"},
	}
	for _, tt := range tests {
		t.Run(tt.module, func(t *testing.T) {
			m := realModuleManager(t, tt.module)
			mustEval(t, m, "", "import (\n\"fmt\"\n\"os\"\n\"path/filepath\"\n\"time\"\n)")
			ctx, cancel := context.WithTimeout(context.Background(), 11*time.Minute)
			defer cancel()
			res, err := m.Eval(ctx, "", tt.code, 30*time.Second)
			if err != nil {
				t.Fatalf("%v (notes %v)", err, res.Notes)
			}
			wantValue(t, res, tt.value, tt.typ)
			if !strings.HasPrefix(res.Worker, "native ") {
				t.Errorf("ran in %q, want the native worker; notes %v", res.Worker, res.Notes)
			}
		})
	}
}

// TestUninterpretablePackageIsCompiledIn: opened on a copy of
// github.com/dlclark/regexp2, whose syntax package yaegi cannot import
// (a bug with its recursive types) although Go compiles it, the failed
// import says the package is being compiled in; once that build is ready
// the import works and the package is listed as native, with why. Where
// syntax is not native yet, its types send the input compiled before the
// interpreter tries (Misread): the answer is Go's at once.
func TestUninterpretablePackageIsCompiledIn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds native workers")
	}
	const mod = "github.com/dlclark/regexp2"
	m := realModuleManager(t, mod)
	ctx, cancel := context.WithTimeout(context.Background(), 11*time.Minute)
	defer cancel()
	code := "import \"" + mod + "/syntax\"\ntree, err := syntax.Parse(\"a+b\", 0)\nerr == nil && tree != nil"
	res, err := m.Eval(ctx, "", code, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode == ModeCompiled {
		if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "the interpreter would get it wrong") }) {
			t.Fatalf("ran compiled without saying the interpreter would misread it: notes %v", res.Notes)
		}
		wantValue(t, res, "true", "bool")
		return
	}
	if res.Err != "" { // the first time on this machine: the interpreter tried it
		if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "being compiled into the native evaluator") }) {
			t.Fatalf("a failed import of a package Go compiles should ask to compile it in: %q, notes %v", res.Err, res.Notes)
		}
		if err := m.WaitBuild(ctx, ""); err != nil {
			t.Fatal(err)
		}
		if res, err = m.Eval(ctx, "", code, 30*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	wantValue(t, res, "true", "bool")
	pkgs, err := m.Packages(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		if p.Path == mod+"/syntax" && (p.Mode != "native" || !strings.Contains(p.Reason, "the interpreter could not import it")) {
			t.Errorf("%s: %s (%s), want native because the interpreter could not import it", p.Path, p.Mode, p.Reason)
		}
	}
}

// TestInterpreterTroubleIsCompiledIn: opened on real modules whose own
// packages yaegi mishandles, each failure compiles the package in and a
// later try works: goldmark (its parser does not import, then Convert
// panics inside reflect: two rebuilds) and jsonschema (the worker dies of
// a stack overflow importing it).
func TestInterpreterTroubleIsCompiledIn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds native workers")
	}
	tests := []struct{ module, code, value, typ string }{
		{"github.com/yuin/goldmark", "import \"github.com/yuin/goldmark\"\nimport \"strings\"\nvar b strings.Builder\ngoldmark.Convert([]byte(\"# hi\"), &b)\nb.String()", `"<h1>hi</h1>\n"`, "string"},
		{"github.com/santhosh-tekuri/jsonschema/v6", "import \"github.com/santhosh-tekuri/jsonschema/v6\"\nc := jsonschema.NewCompiler()\nc != nil", "true", "bool"},
	}
	for _, tt := range tests {
		t.Run(tt.module, func(t *testing.T) {
			m := realModuleManager(t, tt.module)
			// the module zip keeps jsonschema's go.work, whose cmd/jv it
			// lacks: `go run` (and so a compiled input) would fail on it
			os.Remove(filepath.Join(m.opts.Root, "go.work"))
			// Bounds for a loaded machine (2 cores shared by 8 test
			// processes): a cold native build took over ten minutes there.
			ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
			defer cancel()
			// The selection's own native build first, however long it
			// takes, so that no try runs on the fallback for want of it.
			m.refresh("default")
			if err := m.WaitBuild(ctx, ""); err != nil {
				t.Fatalf("native build: %v", err)
			}
			// Each failure asks for a rebuild with the package compiled in
			// (goldmark needs two); a try waits for the rebuild it asked for.
			var res Result
			var tries []string
			for try := 1; try <= 4; try++ {
				var err error
				res, err = m.Eval(ctx, "", tt.code, MaxTimeout)
				if err == nil && res.Err == "" {
					break
				}
				tries = append(tries, fmt.Sprintf("try %d: %v %q (%s %s, notes %q)", try, err, res.Err, res.Mode, res.Worker, res.Notes))
				if err := m.WaitBuild(ctx, ""); err != nil {
					t.Fatalf("rebuild after %s: %v", tries[len(tries)-1], err)
				}
			}
			if res.Err != "" || res.Value != tt.value || res.Type != tt.typ {
				t.Fatalf("got %q (%s) err %q; want %q (%s); tries:\n%s", res.Value, res.Type, res.Err, tt.value, tt.typ, strings.Join(tries, "\n"))
			}
		})
	}
}

// TestOwnPanicCompilesNothing: a panic of the evaluated code itself, or
// an error that names no project package, asks for no rebuild; a panic
// inside the interpreter's reflect machinery compiles in the project
// packages the input imports.
func TestOwnPanicCompilesNothing(t *testing.T) {
	m := NewManager(ManagerOptions{Root: t.TempDir(), WorkerCommand: testWorkerCommand, Native: true, CacheDir: evaltest.CacheDir()})
	t.Cleanup(m.Close)
	ns := m.native("default")
	ns.plan = &workerbuild.Plan{Packages: []workerbuild.Package{{Path: "example.com/p/lib", Mode: workerbuild.ModeInterpreted}}}
	code := "import \"example.com/p/lib\"\nlib.Run()"
	// Go's runtime errors in the interpreter's (reflect's) words are the
	// program's too, and so is a panic raised in linked code (its frames).
	for _, errText := range []string{"panic: boom", "runtime error: index out of range [3] with length 2", "1:1: undefined: x",
		"panic: reflect: slice index out of range", "panic: reflect: call of reflect.Value.Field on zero Value",
		"panic: reflect: call of reflect.Value.Interface on zero Value" + linkedFrames + "\nexample.com/dep.F(...)\n\t/x/dep/f.go:3"} {
		if note := m.compileUninterpretable("default", code, nil, Result{Mode: ModeInterpreted, Err: errText}); note != "" {
			t.Errorf("%q asked for a rebuild: %s", errText, note)
		}
	}
	overflow := errors.New("the evaluator died (exit status 2); it said: runtime: goroutine stack exceeds 1000000000-byte limit; fatal error: stack overflow")
	if note := m.compileOnCrash("default", "var f func()\nf = func() { lib.Run(); f() }\nf()", overflow); note != "" {
		t.Errorf("the evaluated code's own endless recursion asked for a rebuild: %s", note)
	}
	if len(ns.compile) != 0 {
		t.Fatalf("compile set %v", ns.compile)
	}
	note := m.compileUninterpretable("default", code, nil, Result{Mode: ModeInterpreted, Err: "panic: reflect: call of reflect.Value.Interface on zero Value"})
	if !strings.Contains(note, "example.com/p/lib") || ns.compile["example.com/p/lib"] == "" {
		t.Fatalf("an interpreter panic should compile lib in: note %q, set %v", note, ns.compile)
	}
}

// TestInterpreterPanicCompilesThePackagesOfItsTrace: a panic inside the
// interpreter's machinery compiles in, besides the packages the input
// imports, the project packages its trace passes through (goldmark's
// Convert panics in goldmark/renderer, which the input never names: with
// only the imported package compiled in, the same panic came back).
func TestInterpreterPanicCompilesThePackagesOfItsTrace(t *testing.T) {
	m := NewManager(ManagerOptions{Root: t.TempDir(), WorkerCommand: testWorkerCommand, Native: true, CacheDir: evaltest.CacheDir()})
	t.Cleanup(m.Close)
	ns := m.native("default")
	ns.plan = &workerbuild.Plan{Packages: []workerbuild.Package{
		{Path: "example.com/p", Mode: workerbuild.ModeInterpreted},
		{Path: "example.com/p/render", Mode: workerbuild.ModeInterpreted},
		{Path: "example.com/p/native", Mode: workerbuild.ModeNative},
	}}
	trace := "/tmp/trestle-eval-1-2/gopath-2/src/example.com/p/render/render.go:162:8: panic: example.com/p/render.Render.func(...)\n" +
		"/tmp/trestle-eval-1-2/gopath-2/src/example.com/p/native/n.go:3:1: panic: example.com/p/native.N(...)\n" +
		"/tmp/trestle-eval-1-2/gopath-2/src/example.com/p/p.go:32:9: panic: example.com/p.Convert(...)\n4:1: panic: main(...)\n"
	note := m.compileUninterpretable("default", "import \"example.com/p\"\np.Convert()", nil,
		Result{Mode: ModeInterpreted, Err: "panic: reflect: call of reflect.Value.Interface on zero Value", trace: trace})
	if ns.compile["example.com/p"] == "" || ns.compile["example.com/p/render"] == "" || !strings.Contains(note, "example.com/p/render") {
		t.Fatalf("note %q, compile set %v: want example.com/p and example.com/p/render", note, ns.compile)
	}
	if _, ok := ns.compile["example.com/p/native"]; ok {
		t.Fatalf("a package already native was asked for again: %v", ns.compile)
	}
}

// textFiles is a project of packages over golang.org/x/text and fsnotify
// (modules nobody here wrote), at trestle's versions (in the module cache).
var textFiles = map[string]string{
	"textx/textx.go": `package textx

import (
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// Title is s in title case for tag.
func Title(tag language.Tag, s string) string { return cases.Title(tag).String(s) }
`,
	"watch/watch.go": `package watch

import (
	"strings"

	"github.com/fsnotify/fsnotify"
)

// Names are the ops in op.
func Names(op fsnotify.Op) []string {
	var out []string
	for _, o := range []fsnotify.Op{fsnotify.Create, fsnotify.Write, fsnotify.Remove} {
		if op.Has(o) {
			out = append(out, strings.ToLower(o.String()))
		}
	}
	return out
}
`,
}

// TestEvalAgreesWithGoRunOnXText: a session of everyday inputs on a
// project over golang.org/x/text and fsnotify gives, value for value, what
// `go run` of the same code gives: the project's own packages, the
// modules' types, a package of x/text the interpreter cannot import from
// source (x/text/message). It runs on the fallback interpreter (no native
// build: the test stays under 20 s), which interprets the dependencies
// from source, so each of these runs compiled, as the routing rule says;
// the native worker's interpreter was checked on the same kind of inputs
// by a wider hunt (101 inputs, gonum among the modules; see the commit
// that added this test).
func TestEvalAgreesWithGoRunOnXText(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	const mod = "example.com/textproj"
	files := map[string]string{"go.mod": "module " + mod + "\n\ngo 1.25.0\n\nrequire (\n" +
		requireLines(t, "golang.org/x/text", "github.com/fsnotify/fsnotify", "golang.org/x/sys") + ")\n"}
	sum, err := os.ReadFile(filepath.Join("..", "..", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.sum"] = string(sum)
	for k, v := range textFiles {
		files[k] = v
	}
	cases := []agreeCase{
		{"a project func over x/text", []string{mod + "/textx", "golang.org/x/text/language"}, "", `textx.Title(language.Dutch, "ijsland is mooi")`},
		{"x/text's own value", []string{"golang.org/x/text/language"}, "tagX, errX := language.Parse(\"en-GB\")\nbaseX, _ := tagX.Base()", "fmt.Sprint(tagX, errX, baseX)"},
		{"a package the interpreter cannot import", []string{"golang.org/x/text/message", "golang.org/x/text/language"}, "prX := message.NewPrinter(language.German)", `prX.Sprintf("%d items", 1234567)`},
		{"a project func over fsnotify", []string{"github.com/fsnotify/fsnotify", mod + "/watch"}, "", "watch.Names(fsnotify.Create | fsnotify.Remove)"},
	}
	want := goRunIn(t, testfix.Project(t, files), cases)
	m := NewManager(ManagerOptions{Root: testfix.Project(t, files), Module: mod, WorkerCommand: testWorkerCommand})
	t.Cleanup(m.Close)
	mustEval(t, m, "", "import \"fmt\"")
	for i, c := range cases {
		res, err := m.Eval(context.Background(), "", c.input(), time.Minute)
		if err != nil {
			t.Fatalf("%s: %v (notes %v)", c.name, err, res.Notes)
		}
		if got := (goRunResult{Value: res.Value, Type: res.Type, Err: res.Err, Output: res.Output}); got != want[i] {
			t.Errorf("%s: evaluator (%s): %+v\ngo run: %+v\nnotes %v", c.name, res.Mode, got, want[i], res.Notes)
		}
		t.Logf("%s: %s %s", c.name, res.Mode, res.Value)
	}
}

// requireLines are go.mod require lines for mods at trestle's versions.
func requireLines(t *testing.T, mods ...string) string {
	t.Helper()
	var b strings.Builder
	for _, mod := range mods {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", mod).Output()
		if err != nil {
			t.Fatalf("version of %s: %v", mod, err)
		}
		fmt.Fprintf(&b, "\t%s %s\n", mod, strings.TrimSpace(string(out)))
	}
	return b.String()
}
