package ui

import (
	"errors"
	"strings"
	"testing"

	"trestle/app/workbench"
)

func TestMCPText(t *testing.T) {
	tests := []struct {
		name string
		addr string
		err  error
		want string
	}{
		{name: "off", want: "MCP: off"},
		{name: "listening", addr: "127.0.0.1:4242", want: "MCP: 127.0.0.1:4242"},
		{name: "failed", err: errors.New("address in use"), want: "MCP: failed: address in use"},
		{name: "listening with a problem", addr: "127.0.0.1:4242", err: errors.New("no registry entry"),
			want: "MCP: 127.0.0.1:4242 (no registry entry)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mcpText(tt.addr, tt.err); got != tt.want {
				t.Errorf("mcpText = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAgentsText(t *testing.T) {
	tests := []struct {
		name       string
		clients    []workbench.Client
		connecting int
		want       string
	}{
		{name: "none", want: "0 agents attached"},
		{name: "one", clients: []workbench.Client{{Name: "claude-code"}}, want: "1 agent attached: claude-code"},
		{name: "two, one unnamed", clients: []workbench.Client{{Name: "cursor"}, {}}, want: "2 agents attached: cursor, unnamed client"},
		{name: "only connecting", connecting: 1, want: "0 agents attached, 1 connecting"},
		{name: "two and one connecting", clients: []workbench.Client{{Name: "a"}, {Name: "b"}}, connecting: 1,
			want: "2 agents attached, 1 connecting: a, b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := agentsText(tt.clients, tt.connecting); got != tt.want {
				t.Errorf("agentsText = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestShortPathKeepsTheEnd(t *testing.T) {
	long := "/home/someone/src/github.com/example/a-rather-long-project-name"
	got := shortPath(long)
	if len([]rune(got)) != maxPathShown || !strings.HasSuffix(long, strings.TrimPrefix(got, "…")) {
		t.Fatalf("shortPath = %q", got)
	}
	if shortPath("/tmp/p") != "/tmp/p" {
		t.Fatal("a short path changed")
	}
}
