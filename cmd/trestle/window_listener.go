package main

import (
	"context"
	"log"
	"sync"

	"trestle/app/agent"
	"trestle/app/project"
	"trestle/app/services"
	"trestle/app/workbench"
	"trestle/mcpbridge"
	"trestle/mcpbridge/supervise"
	"trestle/registry"
	"trestle/ui"
)

// The window serves as the tools' Activity, and guards agents' runs
// against unsaved editors; its listener reaches it through a lateWindow.
var (
	_ agent.Activity   = (*ui.Window)(nil)
	_ agent.RunGuard   = (*ui.Window)(nil)
	_ workbench.Window = (*lateWindow)(nil)
	_ agent.Activity   = (*lateWindow)(nil)
	_ agent.RunGuard   = (*lateWindow)(nil)
	_ supervise.Status = (*lateWindow)(nil)
)

// newWindowListener is the window's MCP server for project, served on
// loopback and registered in reg while the person keeps the listener on
// (see package supervise): it follows sw, the window's switch. It is off
// until started; it may start before win has its window.
func newWindowListener(ctx context.Context, project *project.Project, win *lateWindow, sv services.Services, reg *registry.Registry, sw *supervise.Switch, logger *log.Logger) *supervise.Listener {
	ag := agent.New(agent.Config{Project: project, Window: win, Services: sv, Activity: win})
	opts := mcpbridge.Options{Version: version, Logger: logger, OnCall: win.RecordCall}
	withTestHooks(&opts, win)
	// The server is made by the first Start (its tool schemas take a while).
	srv := sync.OnceValue(func() *mcpbridge.Server { return mcpbridge.NewServer(ag, opts) })
	listen := func(token string) (*mcpbridge.Listener, error) {
		l, err := srv().Listen(token)
		if err == nil {
			l.OnFocus = win.Raise // another Trestle opening this project brings this window to the front
		}
		return l, err
	}
	return supervise.New(ctx, supervise.Config{Dir: project.Root, Version: version, Status: win, Registry: reg,
		Logger: logger, Listen: listen, Switch: sw})
}
