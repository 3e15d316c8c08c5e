package mcpbridge

import (
	"fmt"

	"github.com/mark3labs/mcp-go/server"
)

// toolset is a named group of tools that a mode serves whole, as
// github-mcp-server groups its tools. Each tool is declared read-only or
// write where it is added to its set, and the server checks at startup that
// its annotations say the same (see check), so a tool with a missing or
// contradicting annotation never reaches an agent.
type toolset struct {
	name        string
	description string
	// needs reports whether the server has what the set's tools need (the
	// agent offers their operations; a test hook is set); nil means
	// always. A set whose needs are missing is not served.
	needs func(*Server) bool
	tools []declared
}

// declared is a tool as its toolset declares it.
type declared struct {
	tool     server.ServerTool
	readOnly bool
}

func newToolset(name, description string) *toolset {
	return &toolset{name: name, description: description}
}

// when sets what the set's tools need.
func (ts *toolset) when(needs func(*Server) bool) *toolset {
	ts.needs = needs
	return ts
}

// read adds tools that only look: each must be annotated read-only and
// not destructive.
func (ts *toolset) read(tools ...server.ServerTool) *toolset {
	for _, t := range tools {
		ts.tools = append(ts.tools, declared{tool: t, readOnly: true})
	}
	return ts
}

// write adds tools that change something (the window, a run, a proposal):
// each must be annotated as not read-only.
func (ts *toolset) write(tools ...server.ServerTool) *toolset {
	for _, t := range tools {
		ts.tools = append(ts.tools, declared{tool: t, readOnly: false})
	}
	return ts
}

// check reports what is wrong with one declared tool, or nil: a name
// without the trestle_ prefix, no description, annotations left to
// mcp-go's defaults (every tool destructive and open-world), or
// annotations that contradict the declaration.
func (ts *toolset) check(d declared) error {
	t := d.tool.Tool
	a := t.Annotations
	switch {
	case len(t.Name) <= len("trestle_") || t.Name[:len("trestle_")] != "trestle_":
		return fmt.Errorf("tool %q in toolset %s: a tool's name must start with trestle_", t.Name, ts.name)
	case t.Description == "":
		return fmt.Errorf("tool %s in toolset %s has no description", t.Name, ts.name)
	case a.Title == "" || a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil:
		// mcp.NewTool fills in its defaults (not read-only, destructive,
		// open-world), so a hint that is there may still be one nobody
		// chose; hints and runsCode set every hint and a title, and
		// the defaults have none.
		return fmt.Errorf("tool %s in toolset %s must set its title and every annotation (read-only, destructive, idempotent, open-world) with hints or runsCode", t.Name, ts.name)
	case d.readOnly && !*a.ReadOnlyHint:
		return fmt.Errorf("tool %s in toolset %s is added with read but is not annotated read-only", t.Name, ts.name)
	case d.readOnly && *a.DestructiveHint:
		return fmt.Errorf("tool %s in toolset %s is added with read but is annotated destructive", t.Name, ts.name)
	case !d.readOnly && *a.ReadOnlyHint:
		return fmt.Errorf("tool %s in toolset %s is added with write but is annotated read-only", t.Name, ts.name)
	}
	return nil
}

// serve is the tools of the named sets that srv can serve, checked: an
// unknown set name, a tool that fails check or a name served twice is an
// error (the server refuses to start with it).
func serve(sets []*toolset, names []string, srv *Server) ([]server.ServerTool, error) {
	byName := map[string]*toolset{}
	for _, ts := range sets {
		byName[ts.name] = ts
	}
	var tools []server.ServerTool
	seen := map[string]string{}
	for _, name := range names {
		ts, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("no toolset named %q", name)
		}
		if ts.needs != nil && !ts.needs(srv) {
			continue
		}
		for _, d := range ts.tools {
			if err := ts.check(d); err != nil {
				return nil, err
			}
			if other, dup := seen[d.tool.Tool.Name]; dup {
				return nil, fmt.Errorf("tool %s is in toolsets %s and %s; a tool belongs to one", d.tool.Tool.Name, other, ts.name)
			}
			seen[d.tool.Tool.Name] = ts.name
			tools = append(tools, d.tool)
		}
	}
	return tools, nil
}
