package mcpbridge

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app"
)

type workbenchParams struct{}

type workbenchResult struct {
	State    string       `json:"state"`
	Root     string       `json:"root"`
	Module   string       `json:"module"`
	Tabs     []app.Tab    `json:"tabs"`
	Active   string       `json:"active"`
	Listener string       `json:"listener"`
	Clients  []app.Client `json:"clients"`
}

func (s *Server) workbenchTool() server.ServerTool {
	tool := mcp.NewTool("trestle_workbench",
		mcp.WithDescription("Shows what the person sees in the Trestle window: project root, module path, "+
			"open tabs and the active one, the listener address and the attached agents. Call it first. e.g. {}"),
		mcp.WithInputSchema[workbenchParams](),
		hints("Look at the workbench", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.workbench)}
}

func (s *Server) workbench(ctx context.Context, _ workbenchParams) *mcp.CallToolResult {
	tabs, err := s.opts.Window.Tabs(ctx)
	if err != nil {
		return failErr(err)
	}
	res := workbenchResult{State: stateDone, Root: s.opts.Project.Root, Module: s.opts.Project.Module,
		Tabs: tabs, Clients: s.clients()}
	if l := s.listener.Load(); l != nil {
		res.Listener = l.Addr()
	}
	for _, t := range tabs {
		if t.Active {
			res.Active = t.Path
		}
	}
	return done(res, "%s", describeWorkbench(res))
}

func describeWorkbench(w workbenchResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Project %s", w.Root)
	if w.Module != "" {
		fmt.Fprintf(&b, " (module %s)", w.Module)
	}
	b.WriteString("\nOpen tabs:")
	if len(w.Tabs) == 0 {
		b.WriteString(" none")
	}
	for _, t := range w.Tabs {
		mark := ""
		if t.Active {
			mark = " (active)"
		}
		if t.Dirty {
			mark += " (unsaved)"
		}
		fmt.Fprintf(&b, "\n  %s%s", t.Path, mark)
	}
	names := make([]string, len(w.Clients))
	for i, c := range w.Clients {
		names[i] = c.Name
	}
	fmt.Fprintf(&b, "\nListener %s; attached: %s", w.Listener, strings.Join(names, ", "))
	return b.String()
}
