package eval

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"trestle/app/eval/evaltest"
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

// The cold build figures are BenchmarkColdBuild* in package workerbuild.

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
