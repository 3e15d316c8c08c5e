package ui

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"trestle/app/eval"
)

// workerEnv makes the test binary act as an evaluator worker, so that the
// Eval pane's tests run against a real worker process.
const workerEnv = "TRESTLE_UI_TEST_EVAL_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" {
		opts, err := eval.WorkerOptionsFromEnv()
		if err == nil {
			err = eval.RunWorker(context.Background(), os.Stdin, os.Stdout, opts)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// testWorkerCommand re-executes the test binary as a worker.
func testWorkerCommand(string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	return cmd
}
