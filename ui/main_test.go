package ui

import (
	"os"
	"testing"

	"trestle/internal/testfix"
	"trestle/internal/testfix/testworker"
)

func TestMain(m *testing.M) {
	testworker.Run() // the Eval pane's tests run against a real worker: this binary
	os.Exit(testfix.RunIsolated(m))
}

// testWorkerCommand re-executes the test binary as a worker.
var testWorkerCommand = testworker.Command
