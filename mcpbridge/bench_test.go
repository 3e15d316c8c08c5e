package mcpbridge

import (
	"context"
	"encoding/json"
	"testing"
)

// BenchmarkHandleMessagePing is mcp-go's own cost for a ping.
func BenchmarkHandleMessagePing(b *testing.B) {
	srv := NewServer(Options{Project: newTestProject(b), Version: "bench"})
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
	} {
		b.Run(bc.name, func(b *testing.B) {
			l := startListener(b)
			rc := dialAuth(b, l)
			rc.initialize("bench")
			for b.Loop() {
				rc.sendf("%s", bc.line)
				rc.recv()
			}
		})
	}
}
