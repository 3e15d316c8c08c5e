package eval

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"trestle/app/eval/evaltest"
	"trestle/app/eval/workerbuild"
)

// nativeBenchManager is newNativeManager for benchmarks, with its worker built.
func nativeBenchManager(b *testing.B, cache string) *Manager {
	b.Helper()
	root := b.TempDir()
	trestle, _ := filepath.Abs("../..")
	if err := evaltest.Write(root, trestle); err != nil {
		b.Fatal(err)
	}
	m := NewManager(ManagerOptions{
		Root: root, Module: evaltest.Module, WorkerCommand: testWorkerCommand,
		Native: true, CacheDir: cache, BuildWait: 30 * time.Minute,
	})
	b.Cleanup(m.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	res, err := m.Eval(ctx, "", `import "golang.org/x/sys/unix"`, 0)
	if err != nil || res.Err != "" {
		b.Fatal(err, res)
	}
	if err := m.WaitBuild(ctx, ""); err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkNativeColdBuild is a first build with an empty worker cache
// (the standard library's tables included, which later projects on the
// same toolchain reuse); report it against BenchmarkPlainGoBuild. Run with
// -benchtime=1x: each iteration takes minutes.
func BenchmarkNativeColdBuild(b *testing.B) {
	for b.Loop() {
		buildFixture(b, b.TempDir())
	}
}

// BenchmarkNativeProjectBuild is the build of a new project's worker when
// the toolchain's tables are cached (the usual "cold" start): dependency
// tables and go build. Run with -benchtime=1x.
func BenchmarkNativeProjectBuild(b *testing.B) {
	cache := b.TempDir()
	buildFixture(b, cache) // tables of the standard library, outside the measure
	os.RemoveAll(filepath.Join(cache, "workers"))
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		os.RemoveAll(filepath.Join(cache, "workers"))
		b.StartTimer()
		buildFixture(b, cache)
	}
}

// buildFixture plans and builds the fixture's worker in cache.
func buildFixture(b *testing.B, cache string) {
	root := b.TempDir()
	trestle, _ := filepath.Abs("../..")
	if err := evaltest.Write(root, trestle); err != nil {
		b.Fatal(err)
	}
	o := workerbuild.Options{Root: root, Module: evaltest.Module, CacheDir: cache}
	plan, err := workerbuild.MakePlan(context.Background(), o)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := workerbuild.Build(context.Background(), o, plan, nil); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPlainGoBuild is `go build` of the same packages (the fixture's
// own and its dependencies, with the Go build cache as the other builds
// found it), linking them into one program, for comparison.
func BenchmarkPlainGoBuild(b *testing.B) {
	root := b.TempDir()
	trestle, _ := filepath.Abs("../..")
	if err := evaltest.Write(root, trestle); err != nil {
		b.Fatal(err)
	}
	main := "package main\n\nimport (\n"
	for _, p := range []string{"store", "watch", "sys", "text", "fast", "raw", "calc"} {
		main += "\t_ \"" + evaltest.Module + "/" + p + "\"\n"
	}
	main += ")\n\nfunc main() {}\n"
	if err := os.MkdirAll(filepath.Join(root, "cmd", "all"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "cmd", "all", "main.go"), []byte(main), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		cmd := exec.Command("go", "build", "-o", filepath.Join(b.TempDir(), "all"), "./cmd/all")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
}

// BenchmarkNativeCachedStart is a native worker start from a cached build
// (process, GOPATH tree, interpreter with the tables) plus a first `1`
// (target ≤ 300 ms).
func BenchmarkNativeCachedStart(b *testing.B) {
	m := nativeBenchManager(b, evaltest.CacheDir())
	ctx := context.Background()
	for b.Loop() {
		m.Restart("")
		if res, err := m.Eval(ctx, "", "1", 0); err != nil || res.Worker == "interpreter" {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkNativeWarm is `1+1` on a warm native worker (target ≤ 2 ms).
func BenchmarkNativeWarm(b *testing.B) {
	m := nativeBenchManager(b, evaltest.CacheDir())
	ctx := context.Background()
	for b.Loop() {
		if res, err := m.Eval(ctx, "", "1+1", 0); err != nil || res.Value != "2" {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkNativeWarmDependencyCall is a call into a compiled dependency
// (x/sys/unix) on a warm native worker (target ≤ 2 ms).
func BenchmarkNativeWarmDependencyCall(b *testing.B) {
	m := nativeBenchManager(b, evaltest.CacheDir())
	ctx := context.Background()
	for b.Loop() {
		if res, err := m.Eval(ctx, "", "unix.Getpagesize()", 0); err != nil || res.Err != "" {
			b.Fatal(err, res)
		}
	}
}
