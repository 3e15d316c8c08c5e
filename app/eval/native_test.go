package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"trestle/app/eval/evaltest"
	"trestle/internal/testfix"
)

// newNativeManager returns a Manager with native workers on a fresh copy
// of the evaltest fixture, sharing the test build cache, and waiting for
// the build on the first evaluation.
func newNativeManager(t *testing.T) *Manager {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a native worker")
	}
	root := t.TempDir()
	trestle, _ := filepath.Abs("../..")
	if err := evaltest.Write(root, trestle); err != nil {
		t.Fatal(err)
	}
	m := NewManager(ManagerOptions{
		Root: root, Module: evaltest.Module, WorkerCommand: testWorkerCommand,
		Native: true, CacheDir: evaltest.CacheDir(), BuildWait: 10 * time.Minute,
	})
	t.Cleanup(m.Close)
	return m
}

// evalLong evaluates with a deadline long enough for a cold build.
func evalLong(t *testing.T, m *Manager, code string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 11*time.Minute)
	defer cancel()
	res, err := m.Eval(ctx, "", code, 30*time.Second)
	if err != nil {
		t.Fatalf("eval %q: %v (notes %v)", code, err, res.Notes)
	}
	return res
}

func TestNativeWorkerLinksTheToolchainAndTheDependencies(t *testing.T) {
	m := newNativeManager(t)
	res := evalLong(t, m, "import \"golang.org/x/sys/unix\"\nunix.Getpagesize()")
	wantValue(t, res, fmt.Sprint(os.Getpagesize()), "int")
	if !strings.HasPrefix(res.Worker, "native go1.") {
		t.Fatalf("worker %q, want a native one; notes %v", res.Worker, res.Notes)
	}
	dir := t.TempDir()
	tests := []struct{ name, code, value, typ string }{
		{"modern stdlib", "import \"crypto/sha3\"\nfmt.Sprintf(\"%x\", sha3.Sum256([]byte(\"abc\")))[:8]", `"3a985da7"`, "string"},
		{"bbolt round trip", boltRoundTrip(filepath.Join(dir, "t.db"), "v1"), `"v1<nil>"`, "string"},
		{"fsnotify event", fsnotifyCreate(dir, "new.txt"), `"new.txt true"`, "string"},
		{"a dependency's constant (its table's static arrays)", "int(unix.AF_INET) + int(unix.O_RDONLY)", "2", "int"},
		{"a dependency's variable", "unix.Stdout", "1", "int"},
		{"a standard library variable", "len(os.Args) > 0", "true", "bool"},
		{"assembly in a dependency", "import \"github.com/segmentio/asm/ascii\"\nascii.ValidString(\"plain\")", "true", "bool"},
		{"assembly in the project", "import \"" + evaltest.Module + "/fast\"\nfast.Add(40, 2)", "42", "int64"},
		{"assembly in an internal package below the module root", "import \"" + evaltest.Module + "/lib/internal/fastsum\"\nfastsum.Sum(40, 2)", "42", "int64"},
		{"interpreted code calling it", "import \"" + evaltest.Module + "/lib\"\nlib.Sum(1, 2)", "3", "int64"},
		{"unsafe in the project", "import \"" + evaltest.Module + "/raw\"\nraw.IntSize()", "8", "int"},
		{"types shared by native packages", "import \"" + evaltest.Module + "/shared\"\nraw.Greet(shared.Name(\"you\"))", `"hello you"`, "string"},
		{"interpreted project code reaches unexported names", "import \"" + evaltest.Module + "/calc\"\ncalc.double(21)", "42", "int"},
	}
	mustEval(t, m, "", "import (\n\"fmt\"\n\"os\"\n\"path/filepath\"\n\"time\"\n)")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantValue(t, mustEval(t, m, "", tt.code), tt.value, tt.typ)
		})
	}
	pkgs, err := m.Packages(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string]string{}
	for _, p := range pkgs {
		modes[p.Path] = p.Mode
	}
	for path, want := range map[string]string{"go.etcd.io/bbolt": "native", evaltest.Module + "/raw": "native", evaltest.Module + "/calc": "interpreted"} {
		if modes[path] != want {
			t.Errorf("Packages: %s is %q, want %q (all: %v)", path, modes[path], want, modes)
		}
	}
}

// TestSecondStartIsNativeAtOnce: the next manager on the same project (the
// next start of Trestle) starts the cached native worker without waiting
// for a plan or a build.
func TestSecondStartIsNativeAtOnce(t *testing.T) {
	m := newNativeManager(t)
	evalLong(t, m, "1")
	if err := m.WaitBuild(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	m.Close()
	again := NewManager(ManagerOptions{
		Root: m.opts.Root, Module: evaltest.Module, WorkerCommand: testWorkerCommand,
		Native: true, CacheDir: evaltest.CacheDir(), // no BuildWait: it would not wait
	})
	t.Cleanup(again.Close)
	start := time.Now()
	res := mustEval(t, again, "", "import \"golang.org/x/sys/unix\"\nunix.Getpagesize() > 0")
	wantValue(t, res, "true", "bool")
	if !strings.HasPrefix(res.Worker, "native") {
		t.Fatalf("the second start ran in %q; notes %v", res.Worker, res.Notes)
	}
	t.Logf("second start and first evaluation: %s", time.Since(start))
}

// TestBuildErrorKeepsThePreviousWorker: a native project package that does
// not compile fails the build of the worker that links it (when an input
// imports it) with its problem (file:line:col), and the worker built
// before keeps serving.
func TestBuildErrorKeepsThePreviousWorker(t *testing.T) {
	m := newNativeManager(t)
	wantValue(t, evalLong(t, m, "import \"golang.org/x/sys/unix\"\nunix.Getpagesize() > 0"), "true", "bool")
	if err := m.WaitBuild(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	testfix.WriteFiles(t, m.opts.Root, map[string]string{"rawbad/bad.go": "package rawbad\n\nimport \"unsafe\"\n\nvar Size int = unsafe.Sizeof(0)\n"})
	failed := make(chan BuildEvent, 1)
	cancel := m.Subscribe(func(e BuildEvent) {
		if e.Phase == "failed" {
			select {
			case failed <- e:
			default:
			}
		}
	})
	defer cancel()
	m.Restart("")
	res := mustEval(t, m, "", "import \"golang.org/x/sys/unix\"\nunix.Getpagesize() > 0")
	wantValue(t, res, "true", "bool")
	if !strings.HasPrefix(res.Worker, "native") {
		t.Fatalf("the previous native worker should serve during the rebuild: %q", res.Worker)
	}
	res = evalLong(t, m, "import \""+evaltest.Module+"/rawbad\"")
	if !strings.HasPrefix(res.Worker, "native") || !strings.Contains(strings.Join(res.Notes, "\n"), "rawbad/bad.go:5:") {
		t.Fatalf("importing rawbad should say where its build failed and keep the native worker: %q %v", res.Worker, res.Notes)
	}
	var e BuildEvent
	select {
	case e = <-failed:
	case <-time.After(10 * time.Minute):
		t.Fatal("the rebuild never failed")
	}
	found := false
	for _, p := range e.Problems {
		found = found || (p.Path == "rawbad/bad.go" && p.Line == 5 && p.Col > 0)
	}
	if !found {
		t.Fatalf("want a problem at rawbad/bad.go:5, got %+v (%s)", e.Problems, e.Message)
	}
	wantValue(t, mustEval(t, m, "", "unix.Getpagesize() > 0"), "true", "bool")
}

// TestNativeWorkerThatDoesNotStartFallsBack: a cached worker binary that
// does not start (a broken cache entry) is dropped and the interpreter
// serves.
func TestNativeWorkerThatDoesNotStartFallsBack(t *testing.T) {
	root := newDemo(t)
	cache := t.TempDir()
	bad := filepath.Join(t.TempDir(), "worker")
	if err := os.WriteFile(bad, []byte("#!/bin/sh\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	m := NewManager(ManagerOptions{Root: root, Module: "example.com/demo", WorkerCommand: testWorkerCommand, Native: true, CacheDir: cache})
	t.Cleanup(m.Close)
	m.saveRecord("default", bad)
	res := mustEval(t, m, "", "1+1")
	wantValue(t, res, "2", "int")
	if res.Worker != "interpreter" || !strings.Contains(strings.Join(res.Notes, "\n"), "did not start") {
		t.Fatalf("want the fallback with a note, got %q %v", res.Worker, res.Notes)
	}
	if m.loadRecord("default").Binary == bad {
		t.Fatal("the broken worker is still recorded")
	}
}

// TestCloseCancelsABuild: closing the manager while a native build runs
// stops the build and every process it started (go build's compilers).
func TestCloseCancelsABuild(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a native build")
	}
	m := NewManager(ManagerOptions{Root: newDemo(t), Module: "example.com/demo", WorkerCommand: testWorkerCommand, Native: true, CacheDir: t.TempDir()})
	started := make(chan struct{}, 1)
	m.Subscribe(func(e BuildEvent) {
		if e.Phase == "tables" {
			select {
			case started <- struct{}{}:
			default:
			}
		}
	})
	wantValue(t, mustEval(t, m, "", "1+1"), "2", "int") // the fallback, while the build starts
	select {
	case <-started:
	case <-time.After(2 * time.Minute):
		t.Fatal("the build never started")
	}
	if runtime.GOOS == "linux" {
		testfix.Wait(t, 2*time.Minute, "waiting for a go command of the build", func() bool {
			for _, pid := range descendants(os.Getpid()) {
				comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
				if c := strings.TrimSpace(string(comm)); c == "go" || c == "compile" || c == "evalgen" {
					return true
				}
			}
			return false
		})
	}
	closed := make(chan struct{})
	go func() { m.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Close waited for the build")
	}
	testfix.Wait(t, 30*time.Second, "waiting for the build's processes to end", func() bool { return len(descendants(os.Getpid())) == 0 })
}

// TestNoBuildEventsOnceClosed: a build that Close cancels is not reported
// as failed (the window's subscriber would call Fyne after the app has
// stopped: the window's e2e test caught it at SIGTERM).
func TestNoBuildEventsOnceClosed(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a native worker build")
	}
	root := t.TempDir()
	trestle, _ := filepath.Abs("../..")
	if err := evaltest.Write(root, trestle); err != nil {
		t.Fatal(err)
	}
	m := NewManager(ManagerOptions{Root: root, Module: evaltest.Module, WorkerCommand: testWorkerCommand,
		Native: true, CacheDir: t.TempDir()}) // an empty cache: the build takes seconds
	started := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	var heard []BuildEvent
	m.Subscribe(func(e BuildEvent) {
		once.Do(func() { close(started) })
		mu.Lock()
		defer mu.Unlock()
		if e.Phase == "failed" {
			heard = append(heard, e)
		}
	})
	mustEval(t, m, "", "1") // the interpreter answers; the build starts in the background
	select {
	case <-started:
	case <-time.After(time.Minute):
		t.Fatal("no build started")
	}
	m.Close() // waits for the build to end
	m.Close() // the window closes it at the signal and again on the way out
	mu.Lock()
	defer mu.Unlock()
	if len(heard) > 0 {
		t.Fatalf("a build Close cancelled was reported as failed: %+v", heard)
	}
}
