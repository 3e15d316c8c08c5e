package acp_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"trestle/app/acp"
	"trestle/app/project"
	"trestle/app/sandbox"
	"trestle/internal/testfix"
)

// TestNpmAgentsInitialize starts the ACP agents published on npm (pinned
// in test/agents/package.json, installed by make agent-deps) inside the
// sandbox, and completes initialize and session/new with each: no model
// is called for that.
func TestNpmAgentsInitialize(t *testing.T) {
	testfix.RequireBwrap(t)
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is not installed; run scripts/deps.sh --test")
		}
		t.Skip("node is not installed; run scripts/deps.sh --test")
	}
	agents, err := filepath.Abs(filepath.Join("..", "..", "test", "agents", "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, entry string }{
		{"claude-code-acp", "@zed-industries/claude-code-acp/dist/index.js"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			entry := filepath.Join(agents, tc.entry)
			if _, err := os.Stat(entry); err != nil {
				t.Fatalf("%s is not installed in test/agents; run make agent-deps (npm ci in test/agents): %v", tc.name, err)
			}
			p, err := project.Open(testfix.Project(t, map[string]string{"go.mod": "module p\n"}))
			if err != nil {
				t.Fatal(err)
			}
			stage, err := sandbox.NewStage(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			defer stage.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			// The agent writes its own state (~/.claude), which the sandbox keeps read-only: it gets a folder of the session instead.
			s, err := acp.Start(ctx, acp.Options{Command: []string{node, entry}, Stage: stage, Stderr: testWriter{t},
				Env: []string{"CLAUDE_CONFIG_DIR=" + filepath.Join(stage.Tmp, "claude"), "IS_SANDBOX=1"}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.ID() == "" || s.Agent.ProtocolVersion == 0 {
				t.Fatalf("%s: initialize answered %+v, session %q", tc.name, s.Agent, s.ID())
			}
			t.Logf("%s: protocol %d, agent %+v, session %s", tc.name, s.Agent.ProtocolVersion, s.Agent.AgentInfo, s.ID())
		})
	}
}

// testWriter logs what the agent writes on stderr.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) { w.t.Logf("agent: %s", p); return len(p), nil }
