package agent

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
