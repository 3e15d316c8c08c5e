package testfix

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// callBound bounds one tool call: past it the test fails rather than hangs.
const callBound = 60 * time.Second

// CallTool calls the tool name with args through c and returns its result
// and structured content (nil when it has none as an object). A protocol
// error fails the test; a failed call is a result with IsError.
func CallTool(tb testing.TB, c *client.Client, name string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callBound)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	return res, sc
}

// Text is the text content of a result, joined.
func Text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
