package mcpbridge

import (
	"os"
	"testing"

	"trestle/internal/testfix"
	"trestle/internal/testfix/testworker"
)

func TestMain(m *testing.M) {
	testworker.Run() // when an evaluator test started this binary as its worker
	os.Exit(testfix.RunIsolated(m))
}

// The shared test helpers under this package's short names.
var (
	// testWorkerCommand runs evaluations in this test binary as a worker.
	testWorkerCommand = testworker.Command
	// callTool calls a tool through an mcp-go client.
	callTool = testfix.CallTool
	// textOf is a result's text.
	textOf = testfix.Text
	// waitFor waits on a condition under a deadline.
	waitFor = testfix.Wait
)
