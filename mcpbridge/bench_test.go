package mcpbridge

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"trestle/app/services"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// BenchmarkHandleMessagePing is mcp-go's own cost for a ping.
func BenchmarkHandleMessagePing(b *testing.B) {
	srv := NewServer(testAgent(newTestProject(b), nil, services.Services{}), Options{Version: "bench"})
	msg := json.RawMessage(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	for b.Loop() {
		srv.MCP().HandleMessage(context.Background(), msg)
	}
}

// BenchmarkListenerRoundTrip is one request and its reply over a real
// loopback connection to the listener, in process.
func BenchmarkListenerRoundTrip(b *testing.B) {
	for _, bc := range []struct{ name, line string }{
		{"ping", `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
		{"files", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"trestle_files","arguments":{"under":"pkg"}}}`},
		// a 256 KiB argument to a tool that only measures it: what
		// decoding a line costs, with little else
		{"size_256k", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_size","arguments":{"text":"` +
			strings.Repeat("a", 256<<10) + `"}}}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			l := startListenerWith(b, nil, func(l *Listener) { l.srv.AddTools(sizeTool()) })
			rc := dialAuth(b, l)
			rc.initialize("bench")
			for b.Loop() {
				rc.sendf("%s", bc.line)
				rc.recv()
			}
		})
	}
}

// sizeTool answers the length of its text argument, through typed as
// every Trestle tool is.
func sizeTool() server.ServerTool {
	tool := mcp.NewTool("test_size", mcp.WithString("text"))
	return server.ServerTool{Tool: tool, Handler: typed(func(_ context.Context, p struct {
		Text string `json:"text"`
	}) *mcp.CallToolResult {
		return mcp.NewToolResultText(strconv.Itoa(len(p.Text)))
	})}
}
