// Package testworker makes a test binary an evaluator worker, so a
// test's evaluations run in a real worker process. It lives apart from
// testfix because it links the evaluator, which most tests do not need.
package testworker

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	"trestle/app/eval"
)

// workerEnv makes a test binary act as an evaluator worker, as
// `trestle --eval-worker` does in the real program.
const workerEnv = "TRESTLE_TEST_EVAL_WORKER"

// Run, called first in TestMain, turns the test binary into an
// evaluator worker (and exits) when Command started it as one; else
// it returns at once.
func Run() {
	if os.Getenv(workerEnv) != "1" {
		return
	}
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

// Command re-executes the test binary as an evaluator worker, so a
// test's evaluations run in a real worker process. It fits
// eval.ManagerOptions.WorkerCommand; the test's TestMain must call
// Run.
func Command(string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	return cmd
}
