package mcpbridge

import (
	"io"
	"log"
	"os"
	"testing"

	"trestle/app/agent"
	"trestle/app/project"
	"trestle/app/services"
	"trestle/app/workbench"
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

// testAgent is the agent a test serves: over p, with win (nil for the
// headless server) and sv.
func testAgent(p *project.Project, win workbench.Window, sv services.Services) *agent.Agent {
	return agent.New(agent.Config{Project: p, Window: win, Services: sv})
}

// quiet is a test server's Options: version "test", its log discarded.
func quiet() Options { return Options{Version: "test", Logger: log.New(io.Discard, "", 0)} }
