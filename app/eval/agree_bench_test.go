package eval

import (
	"context"
	"os/exec"
	"testing"
)

// agreeBench are the inputs the agreement benchmarks time: a call into
// plain project code, which the interpreter keeps, and a generic project
// func, which runs compiled. Each is timed beside `go run` of the same code.
var agreeBench = map[string]agreeCase{
	"interpreted": {name: "interpreted", imports: []string{agreeModule + "/calc"}, expr: `calc.Shout("hi") + fmt.Sprint(calc.Add(2, 3))`},
	"compiled":    {name: "compiled", imports: []string{agreeModule + "/coll"}, expr: "coll.Sum([]float64{1.5, 2})"},
}

// BenchmarkEvalAgree is a warm evaluation of each agreeBench input on the
// fixture of TestEvalAgreesWithGoRun (the interpreter worker, no native
// build): mode interpreted is one round trip, mode compiled one
// build-from-cache, link and run.
func BenchmarkEvalAgree(b *testing.B) {
	for _, mode := range []string{"interpreted", "compiled"} {
		b.Run(mode, func(b *testing.B) {
			m := NewManager(ManagerOptions{Root: writeAgreeModule(b), Module: agreeModule, WorkerCommand: testWorkerCommand})
			b.Cleanup(m.Close)
			ctx := context.Background()
			code := "import \"fmt\"\n" + agreeBench[mode].input()
			for range 2 { // start the worker, fill the build cache
				if res, err := m.Eval(ctx, "", code, 0); err != nil || res.Err != "" || res.Mode != mode {
					b.Fatalf("%v %+v", err, res)
				}
			}
			for b.Loop() {
				if _, err := m.Eval(ctx, "", code, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGoRunAgree is `go run` of each agreeBench input as a generated
// main in a copy of the fixture, with the build cache warm: the baseline
// of BenchmarkEvalAgree.
func BenchmarkGoRunAgree(b *testing.B) {
	for _, mode := range []string{"interpreted", "compiled"} {
		b.Run(mode, func(b *testing.B) {
			root := writeGoRun(b, []agreeCase{agreeBench[mode]})
			goRun := func() {
				cmd := exec.Command("go", "run", "./gorun")
				cmd.Dir = root
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("go run: %v\n%s", err, out)
				}
			}
			goRun() // fill the build cache
			for b.Loop() {
				goRun()
			}
		})
	}
}
