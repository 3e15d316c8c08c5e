package sweep

import (
	"os"
	"testing"

	"trestle/internal/testfix"
)

// TestMain runs the tests with new, empty user folders (testfix.RunIsolated).
func TestMain(m *testing.M) { os.Exit(testfix.RunIsolated(m)) }
