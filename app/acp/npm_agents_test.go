package acp_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trestle/app/acp"
	"trestle/app/project"
	"trestle/app/sandbox"
	"trestle/internal/testfix"
)

// TestNpmAgentsInitialize starts the ACP agents published on npm (pinned
// in test/agents/package.json, installed by make agent-deps) inside the
// sandbox, and completes initialize with each: no model is called for
// that, nor is the network needed.
func TestNpmAgentsInitialize(t *testing.T) {
	testfix.RequireBwrap(t)
	node, err := exec.LookPath("node")
	testfix.Need(t, "node", err)
	agents, err := filepath.Abs(filepath.Join("..", "..", "test", "agents", "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, entry, stateEnv string }{
		{"claude-code-acp", "@zed-industries/claude-code-acp/dist/index.js", "CLAUDE_CONFIG_DIR"},
		{"codex-acp", "@zed-industries/codex-acp/bin/codex-acp.js", "CODEX_HOME"},
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
			// The agent writes its own state (~/.claude, ~/.codex), which the
			// sandbox keeps read-only: it gets a folder of the session instead.
			// IS_SANDBOX tells Claude Code it may run as root (CI's containers).
			state := filepath.Join(stage.Tmp, tc.name)
			if err := os.Mkdir(state, 0o700); err != nil {
				t.Fatal(err)
			}
			s, err := acp.Launch(ctx, acp.Options{Command: []string{node, entry}, Stage: stage, Stderr: testWriter{t},
				Env: []string{tc.stateEnv + "=" + state, "IS_SANDBOX=1"}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			info := s.Agent.AgentInfo
			if s.Agent.ProtocolVersion != 1 || info == nil || !strings.Contains(info.Name, tc.name) {
				t.Fatalf("%s: initialize answered %+v (agent %+v)", tc.name, s.Agent, info)
			}
		})
	}
}

// testWriter logs what the agent writes on stderr.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) { w.t.Logf("agent: %s", p); return len(p), nil }
