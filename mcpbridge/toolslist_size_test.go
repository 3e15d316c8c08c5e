package mcpbridge

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"

	"trestle/app/workbench"
)

// maxToolsListBytes is the most tools/list's answer may take on the wire in
// window mode: every session sends it to the model, so it is paid in tokens
// (about 4 bytes each) at every start. gopls mcp's is 4.3 KB; Trestle's was
// 49 KB before output schemas left it (see docs/performance.md).
const maxToolsListBytes = 20_000

// TestToolsListIsLean reads tools/list's answer as it goes over the wire in
// both modes and checks its size, and that it carries no output schemas.
func TestToolsListIsLean(t *testing.T) {
	for _, mode := range []struct {
		name   string
		window workbench.Window
	}{{"headless", nil}, {"window", definitionsOnly{}}} {
		t.Run(mode.name, func(t *testing.T) {
			line := rawToolsList(t, modeServer(t, mode.window))
			var answer struct {
				Result struct {
					Tools []map[string]json.RawMessage `json:"tools"`
				} `json:"result"`
			}
			if err := json.Unmarshal(line, &answer); err != nil || len(answer.Result.Tools) == 0 {
				t.Fatalf("tools/list answer %.200s: %v", line, err)
			}
			for _, tool := range answer.Result.Tools {
				if _, ok := tool["outputSchema"]; ok {
					t.Errorf("%s sends an output schema", tool["name"])
				}
			}
			t.Logf("%s: tools/list is %d bytes on the wire for %d tools", mode.name, len(line), len(answer.Result.Tools))
			if len(line) > maxToolsListBytes {
				t.Errorf("%s: tools/list is %d bytes, more than %d", mode.name, len(line), maxToolsListBytes)
			}
		})
	}
}

// rawToolsList initializes a session with srv over pipes, as --mcp does,
// and returns tools/list's answer line as written.
func rawToolsList(t *testing.T, srv *Server) []byte {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- ServeStdio(context.Background(), srv, inR, outW); outW.Close() }()
	t.Cleanup(func() { inW.Close(); <-served })
	go func() {
		io.WriteString(inW, rpcLine(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"size-test","version":"1"}}`)+"\n"+
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+rpcLine(2, "tools/list", `{}`)+"\n")
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<22)
	for lines.Scan() {
		var id struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(lines.Bytes(), &id) == nil && string(id.ID) == "2" {
			go io.Copy(io.Discard, outR)
			return append([]byte(nil), lines.Bytes()...)
		}
	}
	t.Fatalf("no answer to tools/list: %v", lines.Err())
	return nil
}
