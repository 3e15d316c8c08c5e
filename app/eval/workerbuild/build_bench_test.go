package workerbuild

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"trestle/app/eval/evaltest"
)

// The cold worker build against a plain `go build` of a main that imports
// the same packages (the standard library packages the worker links, its
// native packages that a main may import, and yaegi's interpreter), in
// the same run and with the Go build cache in the same state. Run with
// -benchtime=1x (each iteration builds several programs):
//
//	go test -run '^$' -bench 'ColdBuild' -benchtime=1x ./app/eval/workerbuild/
//
// Each sub-benchmark reports seconds per build as metrics (plain-s,
// worker-s and so on) and the ratio of the worker build to the plain one.

// BenchmarkColdBuildFreshGoCache gives both builds an empty Go build cache
// of their own, so both compile everything: the standard library, yaegi,
// the dependencies. The worker build also starts with an empty worker
// cache (the table generator, the standard library's tables and every
// dependency's table are made and compiled).
func BenchmarkColdBuildFreshGoCache(b *testing.B) {
	for b.Loop() {
		b.Setenv("GOCACHE", b.TempDir())
		plain := timePlainBuild(b)
		b.Setenv("GOCACHE", b.TempDir())
		worker := timeWorkerBuild(b, b.TempDir(), nil)
		report(b, plain, map[string]time.Duration{"worker-s": worker})
	}
}

// BenchmarkColdBuildWarmGoCache uses the shared Go build cache, in which
// the standard library, yaegi and the dependencies are compiled already
// (a plain build first makes sure), so the plain build only links. The
// worker build is measured three ways:
//   - worker-first-s: the first build on this toolchain (empty worker cache);
//   - worker-new-deps-s: a project whose dependencies' tables are new (the
//     toolchain's tables cached): a selection environment no build has seen
//     gives every table a new key;
//   - worker-same-deps-s: a second project with the same dependencies.
func BenchmarkColdBuildWarmGoCache(b *testing.B) {
	timePlainBuild(b) // fills the Go build cache
	cache := b.TempDir()
	n := 0
	for b.Loop() {
		plain := timePlainBuild(b)
		first := timeWorkerBuild(b, b.TempDir(), nil)
		timeWorkerBuild(b, cache, nil) // the toolchain's tables, outside the measure
		n++
		env := map[string]string{"TRESTLE_BENCH_RUN": strconv.Itoa(n) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)}
		newDeps := timeWorkerBuild(b, cache, env)
		sameDeps := timeWorkerBuild(b, cache, env, "another project") // a go.mod of its own: a new worker key
		report(b, plain, map[string]time.Duration{"worker-first-s": first, "worker-new-deps-s": newDeps, "worker-same-deps-s": sameDeps})
	}
}

func report(b *testing.B, plain time.Duration, worker map[string]time.Duration) {
	b.ReportMetric(plain.Seconds(), "plain-s")
	for name, d := range worker {
		b.ReportMetric(d.Seconds(), name)
		b.ReportMetric(d.Seconds()/plain.Seconds(), strings.TrimSuffix(name, "-s")+"/plain")
	}
}

// benchFixture writes the fixture into a new folder.
func benchFixture(b *testing.B) string {
	b.Helper()
	root := b.TempDir()
	if err := evaltest.Write(root, trestleRoot(b)); err != nil {
		b.Fatal(err)
	}
	return root
}

// timeWorkerBuild plans and builds a worker for a new copy of the fixture
// in cache (with a comment naming project added to its go.mod, if
// given), and returns how long that took.
func timeWorkerBuild(b *testing.B, cache string, env map[string]string, project ...string) time.Duration {
	b.Helper()
	root := benchFixture(b)
	for _, p := range project { // a project of its own, with the same dependencies
		f, err := os.OpenFile(filepath.Join(root, "go.mod"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		f.WriteString("\n// " + p + "\n")
		f.Close()
	}
	start := time.Now()
	o := Options{Root: root, Module: evaltest.Module, CacheDir: cache, Env: env}
	plan, err := MakePlan(context.Background(), o)
	if err != nil {
		b.Fatal(err)
	}
	res, err := Build(context.Background(), o, plan, nil)
	if err != nil {
		b.Fatal(err)
	}
	if res.Cached {
		b.Fatal("the worker build was cached: nothing measured")
	}
	return time.Since(start)
}

// timePlainBuild builds, in a new copy of the fixture, a main that imports
// what the worker links, and returns how long `go build` took.
func timePlainBuild(b *testing.B) time.Duration {
	b.Helper()
	root := benchFixture(b)
	o := Options{Root: root, Module: evaltest.Module}
	plan, err := MakePlan(context.Background(), o)
	if err != nil {
		b.Fatal(err)
	}
	std, err := stdPackages(context.Background(), o)
	if err != nil {
		b.Fatal(err)
	}
	main := "package main\n\nimport (\n"
	for _, p := range append(std, yaegiPath+"/interp") {
		main += "\t_ " + strconv.Quote(p) + "\n"
	}
	for _, p := range plan.Packages {
		if p.Mode == ModeNative && p.home == "" {
			main += "\t_ " + strconv.Quote(p.Path) + "\n"
		}
	}
	main += ")\n\nfunc main() {}\n"
	if err := os.MkdirAll(filepath.Join(root, "cmd", "all"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "cmd", "all", "main.go"), []byte(main), 0o644); err != nil {
		b.Fatal(err)
	}
	gomod, err := os.OpenFile(filepath.Join(root, "go.mod"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	gomod.WriteString("\nrequire " + yaegiPath + " " + yaegiVersion + "\n")
	gomod.Close()
	start := time.Now()
	cmd := exec.Command("go", "build", "-o", filepath.Join(b.TempDir(), "all"), "./cmd/all")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	return time.Since(start)
}
