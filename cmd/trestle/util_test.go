package main

import (
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func itoa(n int) string { return strconv.Itoa(n) }

func mcpListTools() mcp.ListToolsRequest { return mcp.ListToolsRequest{} }

// runTrestle runs the binary to completion and returns stdout+stderr.
func runTrestle(tb testing.TB, env []string, args ...string) (string, error) {
	tb.Helper()
	cmd := exec.Command(trestleBin(tb), args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}
