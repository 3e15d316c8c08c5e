package main

import (
	"slices"
	"strings"
	"testing"
)

func TestParseAgentArgs(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want agentRun
		err  string
	}{
		{"one turn", []string{"run", "--agent", "npx x", "--prompt", "fix it", "proj"},
			agentRun{command: "npx x", prompt: "fix it", policy: "deny", dir: "proj"}, ""},
		{"allow and writable", []string{"run", "--agent", "a", "--prompt", "p", "--agent-policy", "allow", "--writable", "/w1", "--writable", "/w2", "--unsandboxed"},
			agentRun{command: "a", prompt: "p", policy: "allow", writable: []string{"/w1", "/w2"}, unsandboxed: true}, ""},
		{"no run", []string{"--agent", "a"}, agentRun{}, "use trestle agent run"},
		{"no agent", []string{"run", "--prompt", "p"}, agentRun{}, "--agent 'COMMAND LINE' is required"},
		{"no prompt", []string{"run", "--agent", "a"}, agentRun{}, "--prompt TEXT is required"},
		{"ask has nobody", []string{"run", "--agent", "a", "--prompt", "p", "--agent-policy", "ask"}, agentRun{}, "use allow or deny"},
		{"two folders", []string{"run", "--agent", "a", "--prompt", "p", "x", "y"}, agentRun{}, "one project folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseAgentArgs(tc.args)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v; want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil || got.command != tc.want.command || got.prompt != tc.want.prompt || got.policy != tc.want.policy ||
				got.dir != tc.want.dir || got.unsandboxed != tc.want.unsandboxed || !slices.Equal(got.writable, tc.want.writable) {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}
