package mcpbridge

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type withdrawParams struct {
	ID string `json:"id" jsonschema:"the change set id, e.g. cs-3"`
}

func (s *Server) withdrawTool() server.ServerTool {
	tool := mcp.NewTool("trestle_change_set_withdraw",
		mcp.WithDescription("Withdraws a change set you proposed that the person has not decided on yet, e.g. "+
			`before proposing a better one. e.g. {"id":"cs-3"}`),
		mcp.WithInputSchema[withdrawParams](),
		results[changeSetResult](),
		hints("Withdraw a change set", false, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.withdraw)}
}

func (s *Server) withdraw(ctx context.Context, p withdrawParams) *mcp.CallToolResult {
	cs, err := s.agent.Withdraw(ctx, s.caller(ctx), p.ID)
	if err != nil {
		return failErr(err)
	}
	return done(summarizeChangeSet(cs), "Withdrew %s.\n%s", cs.ID, describeChangeSet(cs))
}
