package mcpbridge

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/changeset"
)

type changeSetsParams struct {
	State string `json:"state,omitempty" jsonschema:"only change sets in this state (default: all)"`
}

// changeSetStates are the states trestle_change_sets filters by.
var changeSetStates = []string{changeset.StatePending, changeset.StateApplied, changeset.StatePartlyApplied,
	changeset.StateRejected, changeset.StateWithdrawn, changeset.StateStale, changeset.StateConflict, changeset.StateReverted}

type changeSetsResult struct {
	State      string            `json:"state"`
	ChangeSets []changeSetResult `json:"change_sets"`
}

func (s *Server) changeSetsTool() server.ServerTool {
	tool := mcp.NewTool("trestle_change_sets",
		mcp.WithDescription("Lists this project's change sets, newest first, optionally by state. "+
			`e.g. {"state":"pending"}`),
		mcp.WithInputSchema[changeSetsParams](),
		withEnum("state", changeSetStates...),
		results[changeSetsResult](),
		hints("List change sets", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.changeSets)}
}

func (s *Server) changeSets(_ context.Context, p changeSetsParams) *mcp.CallToolResult {
	list, err := s.agent.ChangeSets(p.State)
	if err != nil {
		return failErr(err)
	}
	res := changeSetsResult{State: stateDone, ChangeSets: []changeSetResult{}}
	text := ""
	for _, cs := range list {
		res.ChangeSets = append(res.ChangeSets, summarizeChangeSet(cs))
		text += describeChangeSet(cs) + "\n"
	}
	if text == "" {
		text = "No change sets."
	}
	return done(res, "%s", text)
}
