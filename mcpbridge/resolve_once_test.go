package mcpbridge

import (
	"context"
	"testing"

	"trestle/app/agent"
	"trestle/app/changeset"
	"trestle/app/workbench"
)

// TestToolsResolveAPathOnce holds trestle_read, trestle_change_set_propose
// and trestle_open to one resolution of the path they are given, headless
// and with a window (before: read 2, propose 2 per file). The path is
// confined once and the confined value is what the reader, the change set
// and the window use (ui's TestWindowOpenDoesNotResolveAgain holds the
// real window to none of its own; before, it resolved the name again).
func TestToolsResolveAPathOnce(t *testing.T) {
	srv, _ := changeSetServer(t)
	ctx := context.Background()
	p := srv.agent.Project()
	for _, window := range []bool{false, true} {
		var w workbench.Window
		if window {
			w = shownWindow{} // main.go is open and unsaved there; pkg/util.go is not
		}
		srv.agent = agent.New(agent.Config{Project: p, Window: w, Services: srv.agent.Services()})
		for _, rel := range []string{"main.go", "pkg/util.go"} {
			before := p.Resolutions()
			if res := srv.read(ctx, readParams{Path: rel}); res.IsError {
				t.Fatalf("read %s: %s", rel, textOf(res))
			}
			if n := p.Resolutions() - before; n != 1 {
				t.Errorf("window %v: trestle_read %s resolved its path %d times, want once", window, rel, n)
			}
		}
		if window {
			for _, args := range []openParams{{Path: "main.go", Line: 1}, {Path: "main.go", Line: 1, EndLine: 1}} {
				before := p.Resolutions()
				if res := srv.open(ctx, args); res.IsError {
					t.Fatalf("open %+v: %s", args, textOf(res))
				}
				if n := p.Resolutions() - before; n != 1 {
					t.Errorf("trestle_open %+v resolved its path %d times, want once", args, n)
				}
			}
		}
		before := p.Resolutions()
		res := srv.propose(ctx, proposeParams{Title: "t", Changes: []changeset.Change{
			{Action: "replace", Path: "main.go", Content: "package main\n"},
			{Action: "replace", Path: "pkg/util.go", Content: "package pkg // 2\n"},
		}})
		if res.IsError {
			t.Fatalf("propose: %s", textOf(res))
		}
		if n := p.Resolutions() - before; n != 2 {
			t.Errorf("window %v: proposing 2 files resolved %d paths, want 2", window, n)
		}
	}
}
