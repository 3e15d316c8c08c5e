package mcpbridge

import (
	"context"
	"errors"
	"io"
	"log"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"trestle/app/services"
	"trestle/app/workbench"
	"trestle/internal/testfix"
)

// TestCallDetailsReadAsWritten: the Agents pane shows arguments as the
// agent wrote them (no \u003c for <), indented, and the result's text; both
// are bounded.
func TestCallDetailsReadAsWritten(t *testing.T) {
	args := map[string]any{"code": "if a < b && c > d { x() }"}
	if got := summarize(args); got != `{"code":"if a < b && c > d { x() }"}` {
		t.Errorf("summary = %s", got)
	}
	if got := indented(args); got != "{\n  \"code\": \"if a < b && c > d { x() }\"\n}" {
		t.Errorf("arguments = %s", got)
	}
	if got := indented(map[string]any{}); got != "" {
		t.Errorf("no arguments = %q, want empty", got)
	}
	big := indented(map[string]any{"code": strings.Repeat("é", workbench.MaxCallDetail)})
	if len(big) > workbench.MaxCallDetail+64 || !strings.Contains(big, "cut at 16 KiB") {
		t.Errorf("a huge argument gives %d bytes, ending %q", len(big), big[len(big)-30:])
	}
	res := mcp.NewToolResultText("2 (int)")
	if got := resultText(res, nil); got != "2 (int)" {
		t.Errorf("result = %q", got)
	}
	if got := resultText(nil, errors.New("boom")); got != "error: boom" {
		t.Errorf("error result = %q", got)
	}
}

// TestCallsAreRecordedUnderEachSessionsName: two real mcp-go clients
// attach to one listener, each naming itself at initialize; every call is
// recorded (the Agents pane) under the name its own session gave, and a
// request that names another client in its _meta (the 2026-07-28 way of
// naming) is still recorded under the session's name: a session cannot
// pass itself off as another mid-way.
func TestCallsAreRecordedUnderEachSessionsName(t *testing.T) {
	calls := make(chan workbench.ToolCall, 64)
	srv := NewServer(testAgent(newTestProject(t), nil, services.Services{}), Options{Version: "test", Logger: log.New(io.Discard, "", 0), OnCall: func(c workbench.ToolCall) {
		if c.State != "running" {
			calls <- c
		}
	}})
	l := serveListener(t, srv, nil)
	named := func(name string) *client.Client {
		rc := dialAuth(t, l)
		rc.c.SetDeadline(time.Time{}) // the client's own bounds from here
		c := client.NewClient(transport.NewIO(rc.r, rc.c, nil))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		req := mcp.InitializeRequest{}
		req.Params.ProtocolVersion = "2025-06-18"
		req.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1"}
		if _, err := c.Initialize(ctx, req); err != nil {
			t.Fatal(err)
		}
		return c
	}
	alpha, beta := named("alpha-agent"), named("beta-agent")
	recorded := func(want string) {
		t.Helper()
		c := testfix.Receive(t, 30*time.Second, "the recorded call", calls)
		if c.Client != want || c.Tool != "trestle_read" || c.State != stateDone {
			t.Errorf("recorded %s by %q (%s), want trestle_read by %q", c.Tool, c.Client, c.State, want)
		}
	}
	callTool(t, alpha, "trestle_read", map[string]any{"path": "main.go"})
	recorded("alpha-agent")
	callTool(t, beta, "trestle_read", map[string]any{"path": "main.go"})
	recorded("beta-agent")
	callTool(t, alpha, "trestle_read", map[string]any{"path": "main.go"})
	recorded("alpha-agent")

	req := mcp.CallToolRequest{}
	req.Params.Name = "trestle_read"
	req.Params.Arguments = map[string]any{"path": "main.go"}
	req.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{
		mcp.MetaKeyProtocolVersion:    mcp.ProtocolVersion20260728,
		mcp.MetaKeyClientInfo:         map[string]any{"name": "beta-agent", "version": "1"},
		mcp.MetaKeyClientCapabilities: map[string]any{},
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := alpha.CallTool(ctx, req); err != nil {
		t.Fatal(err)
	}
	recorded("alpha-agent")
}
