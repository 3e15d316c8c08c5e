package agent

import (
	"os"
	"testing"

	"trestle/internal/testfix"
)

func TestMain(m *testing.M) { os.Exit(testfix.RunIsolated(m)) }
