package eval

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"trestle/app/projconf"
	"trestle/internal/testfix"
)

// workerEnv makes the test binary act as an evaluator worker.
const workerEnv = "TRESTLE_TEST_EVAL_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" {
		os.Exit(runTestWorker())
	}
	os.Exit(testfix.RunIsolated(m))
}

func runTestWorker() int {
	opts, err := WorkerOptionsFromEnv()
	if err == nil {
		err = RunWorker(context.Background(), os.Stdin, os.Stdout, opts)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// testWorkerCommand re-executes the test binary as a worker.
func testWorkerCommand(string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	return cmd
}

// demoFiles is a module with its own package and one dependency that is in
// the module cache (github.com/google/uuid, required by trestle too).
var demoFiles = map[string]string{
	"go.mod": "module example.com/demo\n\ngo 1.22\n\nrequire github.com/google/uuid v1.6.0\n",
	"go.sum": "github.com/google/uuid v1.6.0 h1:NIvaJDMOsjHA8n1jAhLSgzrAzy1Hgr+hNrb57e+94F0=\n" +
		"github.com/google/uuid v1.6.0/go.mod h1:TIyPZe4MgqvfeYDBFedMoGGpEw/LqOeaOT+nhxU+yHo=\n",
	"calc/calc.go": `package calc

import "github.com/google/uuid"

// Add adds.
func Add(a, b int) int { return a + b }

// IDLen is the length of a new UUID's text.
func IDLen() int { return len(uuid.NewString()) }
`,
	"calc/special.go": `//go:build special

package calc

// Special exists only with the special build tag.
func Special() string { return "special" }
`,
}

// newDemo writes the demo module into a temporary folder.
func newDemo(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	testfix.WriteFiles(t, root, demoFiles)
	return root
}

// newTestManager returns a Manager on a fresh demo module, closed by cleanup.
func newTestManager(t testing.TB, sels map[string]projconf.Selection) *Manager {
	t.Helper()
	m := NewManager(ManagerOptions{
		Root: newDemo(t), Module: "example.com/demo", Selections: sels,
		WorkerCommand: testWorkerCommand,
	})
	t.Cleanup(m.Close)
	return m
}

// rawFiles adds a package that yaegi cannot interpret (it uses unsafe) and
// that imports the good calc package, so a failed import leaves calc half
// imported in a worker that does not protect itself.
var rawFiles = map[string]string{
	"raw/raw.go": `package raw

import (
	"unsafe"

	"example.com/demo/calc"
)

// Size is the size of an int, plus calc's answer.
func Size() int { return int(unsafe.Sizeof(0)) + calc.Add(0, 0) }
`,
}
