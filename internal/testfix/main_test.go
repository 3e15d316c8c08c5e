package testfix

import (
	"os"
	"testing"
)

// TestMain runs the tests with new, empty user folders (testfix.RunIsolated).
func TestMain(m *testing.M) { os.Exit(RunIsolated(m)) }
