package mcpbridge

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type outputParams struct {
	Pane      string `json:"pane" jsonschema:"the Run pane (task output) or the Eval pane"`
	TailLines int    `json:"tail_lines,omitempty" jsonschema:"only the last this many lines (default: all the pane keeps)"`
}

func (s *Server) outputTool() server.ServerTool {
	tool := mcp.NewTool("trestle_output",
		mcp.WithDescription("The text of the window's Run or Eval pane, as the person sees it (including what they "+
			`ran themselves). e.g. {"pane":"run","tail_lines":50}`),
		mcp.WithInputSchema[outputParams](),
		withEnum("pane", "run", "eval"),
		hints("Read the Run or Eval pane", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.output)}
}

func (s *Server) output(ctx context.Context, p outputParams) *mcp.CallToolResult {
	text, err := s.agent.Output(ctx, p.Pane, p.TailLines)
	if err != nil {
		return failErr(err)
	}
	if text == "" {
		return doneText("The %s pane is empty.", p.Pane)
	}
	return doneText("The %s pane:\n%s", p.Pane, text)
}
