package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// TestUntrustedProjectRunsNoNativeProjectCode (issue 20): in a project the
// person has not trusted, a project package that needs native code is not
// linked (its init never runs) and the compiled path builds nothing that
// imports a project package; both say why and how to trust. Trusting the
// project lets the same inputs run.
func TestUntrustedProjectRunsNoNativeProjectCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a native worker")
	}
	var trusted atomic.Bool
	root := newDemo(t)
	testfix.WriteFiles(t, root, natFiles)
	m := NewManager(ManagerOptions{
		Root: root, Module: "example.com/demo", WorkerCommand: testWorkerCommand,
		Native: true, CacheDir: filepath.Join(t.TempDir(), "cache"), BuildWait: 10 * time.Minute,
		ProjectTrusted: trusted.Load,
	})
	t.Cleanup(m.Close)
	marker := filepath.Join(root, "nat-init-ran")
	wantValue(t, evalLong(t, m, "1+1"), "2", "int")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res, err := m.Eval(ctx, "", "import \"example.com/demo/nat\"\nnat.Ran", 30*time.Second)
	if err == nil || !strings.Contains(err.Error(), "not trusted") {
		t.Fatalf("an untrusted native package was evaluated: %v %+v", err, res)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the untrusted project's native init ran")
	}
	res, err = m.Eval(ctx, "", "import \"example.com/demo/calc\"\nfor i := range 2 { _ = calc.Add(i, 1) }\ncalc.Add(2, 3)", 30*time.Second)
	if err != nil || res.Mode != ModeCompiled || !strings.Contains(res.Err, "not trusted") {
		t.Fatalf("a compiled input imported an untrusted project package: %v %+v", err, res)
	}

	trusted.Store(true)
	wantValue(t, evalLong(t, m, "import \"example.com/demo/nat\"\nnat.Ran"), "true", "bool")
	res = evalLong(t, m, "import \"example.com/demo/calc\"\nfor i := range 2 { _ = calc.Add(i, 1) }\ncalc.Add(2, 3)")
	if res.Mode != ModeCompiled || res.Err != "" || res.Value != "5" {
		t.Fatalf("trusted, the compiled input runs: %+v", res)
	}
}

// TestUntrustedProjectRunsNoLocalModuleCode (issue 20, found from outside):
// a module the project's own files point at a folder for (go.mod's replace
// by a folder, go.work's use) is the project's code too. Untrusted, an
// input that imports such a package (one that needs native code, so the
// compiled path would build it) is refused and its init never runs; it
// ran, because only the project's module path counted as the project's.
// Trusted, the same inputs run.
func TestUntrustedProjectRunsNoLocalModuleCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds compiled programs")
	}
	root := t.TempDir()
	marks := t.TempDir()
	local := func(name string) string {
		return `package ` + name + `

import (
	"os"
	"unsafe"
)

var Size = int(unsafe.Sizeof(0))

func init() { os.WriteFile(` + "`" + filepath.Join(marks, name) + "`" + `, []byte("ran"), 0o644) }
`
	}
	testfix.WriteFiles(t, root, map[string]string{
		"go.mod":          "module example.com/demo\n\ngo 1.22\n\nrequire example.com/rep v0.0.0\n\nreplace example.com/rep => ./rep\n",
		"go.work":         "go 1.22\n\nuse (\n\t.\n\t./tools/wk\n)\n",
		"main.go":         "package main\n\nfunc main() {}\n",
		"rep/go.mod":      "module example.com/rep\n\ngo 1.22\n",
		"rep/rep.go":      local("rep"),
		"tools/wk/go.mod": "module example.com/wk\n\ngo 1.22\n",
		"tools/wk/wk.go":  local("wk"),
	})
	var trusted atomic.Bool
	m := NewManager(ManagerOptions{Root: root, Module: "example.com/demo", WorkerCommand: testWorkerCommand,
		CacheDir: filepath.Join(t.TempDir(), "cache"), ProjectTrusted: trusted.Load})
	t.Cleanup(m.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for _, pkg := range []string{"rep", "wk"} {
		code := "import \"example.com/" + pkg + "\"\nfor i := range 2 { _ = i }\n" + pkg + ".Size"
		res, err := m.Eval(ctx, "", code, 60*time.Second)
		if !(err != nil && strings.Contains(err.Error(), "not trusted")) && !strings.Contains(res.Err, "not trusted") {
			t.Fatalf("untrusted, an input importing example.com/%s (a folder of the project's files) ran: %v %+v", pkg, err, res)
		}
		if _, err := os.Stat(filepath.Join(marks, pkg)); err == nil {
			t.Fatalf("untrusted, the init of example.com/%s ran", pkg)
		}
	}
	trusted.Store(true)
	for _, pkg := range []string{"rep", "wk"} {
		res := evalLong(t, m, "import \"example.com/"+pkg+"\"\nfor i := range 2 { _ = i }\n"+pkg+".Size")
		if res.Err != "" || res.Value != "8" {
			t.Fatalf("trusted, example.com/%s runs: %+v", pkg, res)
		}
		if _, err := os.Stat(filepath.Join(marks, pkg)); err != nil {
			t.Fatalf("trusted, the init of example.com/%s did not run: %v", pkg, err)
		}
	}
}
