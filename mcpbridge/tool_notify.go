package mcpbridge

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type notifyParams struct {
	Message string `json:"message" jsonschema:"what to tell the person, one or two sentences, at most 2000 bytes"`
}

func (s *Server) notifyTool() server.ServerTool {
	tool := mcp.NewTool("trestle_notify",
		mcp.WithDescription("Shows the person a short notice that names you, without interrupting them; naming a "+
			"change set (cs-12) offers a Review button. Use it sparingly: a change set is ready, or you need them. "+
			`e.g. {"message":"cs-12 fixes the failing test; please review."}`),
		mcp.WithInputSchema[notifyParams](),
		results[stateResult](),
		hints("Tell the person something", false, false, false),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.notify)}
}

func (s *Server) notify(ctx context.Context, p notifyParams) *mcp.CallToolResult {
	if err := s.agent.Notify(ctx, s.caller(ctx), p.Message); err != nil {
		return failErr(err)
	}
	return done(stateResult{State: stateDone}, "The person sees your message.")
}
