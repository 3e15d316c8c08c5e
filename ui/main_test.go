package ui

import (
	"os"
	"testing"

	"trestle/internal/testfix"
)

func TestMain(m *testing.M) {
	testfix.BeWorker() // the Eval pane's tests run against a real worker: this binary
	os.Exit(m.Run())
}

// testWorkerCommand re-executes the test binary as a worker.
var testWorkerCommand = testfix.WorkerCommand
