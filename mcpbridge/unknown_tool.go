package mcpbridge

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// closestShown is how many tool names an unknown-tool error suggests.
const closestShown = 3

// explainUnknownTool rewrites mcp-go's answer to a tools/call of a tool
// the server does not have ("tool 'x' not found: tool not found") so that
// it names the closest tools; the code stays -32602, as the spec asks for
// an unknown tool. Any other answer is returned as it is.
func explainUnknownTool(srv *server.MCPServer, msg []byte, resp mcp.JSONRPCMessage) mcp.JSONRPCMessage {
	var e mcp.JSONRPCError
	switch r := resp.(type) {
	case mcp.JSONRPCError:
		e = r
	case *mcp.JSONRPCError:
		e = *r
	default:
		return resp
	}
	var req struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if e.Error.Code != mcp.INVALID_PARAMS || json.Unmarshal(msg, &req) != nil || req.Method != string(mcp.MethodToolsCall) ||
		srv.GetTool(req.Params.Name) != nil {
		return resp
	}
	names := make([]string, 0, len(srv.ListTools()))
	for n := range srv.ListTools() {
		names = append(names, n)
	}
	closest := closestNames(req.Params.Name, names, closestShown)
	e.Error.Message = fmt.Sprintf("unknown tool %q; the closest: %s (tools/list has all %d)",
		req.Params.Name, strings.Join(closest, ", "), len(names))
	e.Error.Data = map[string]any{"closest": closest}
	return e
}

// closestNames returns the n names nearest to name by edit distance,
// nearest first.
func closestNames(name string, names []string, n int) []string {
	dist := make(map[string]int, len(names))
	for _, c := range names {
		dist[c] = editDistance(name, c)
	}
	sort.Slice(names, func(i, j int) bool {
		if dist[names[i]] != dist[names[j]] {
			return dist[names[i]] < dist[names[j]]
		}
		return names[i] < names[j]
	})
	return names[:min(n, len(names))]
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
