package mcpbridge

import (
	"context"
	"testing"

	"trestle/app/changeset"
)

// TestToolsResolveAPathOnce holds trestle_read and trestle_change_set_propose
// to one resolution of the path they are given, headless and with a window
// (before: read 2, propose 2 per file). The path is confined once and the
// confined value is what the reader and the change set use.
func TestToolsResolveAPathOnce(t *testing.T) {
	srv, _ := changeSetServer(t)
	ctx := context.Background()
	p := srv.opts.Project
	for _, window := range []bool{false, true} {
		srv.opts.Window = nil
		if window {
			srv.opts.Window = shownWindow{} // main.go is open and unsaved there; pkg/util.go is not
		}
		for _, rel := range []string{"main.go", "pkg/util.go"} {
			before := p.Resolutions()
			if res := srv.read(ctx, readParams{Path: rel}); res.IsError {
				t.Fatalf("read %s: %s", rel, textOf(res))
			}
			if n := p.Resolutions() - before; n != 1 {
				t.Errorf("window %v: trestle_read %s resolved its path %d times, want once", window, rel, n)
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
