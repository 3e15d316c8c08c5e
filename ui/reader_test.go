package ui

import (
	"context"
	"testing"

	"trestle/app/changeset"
	"trestle/app/project"
)

// TestWindowApplyResolvesEachFileOnce: an apply from the window, through the
// reader that prefers the editor's text, confines each file's path once
// (before: four times, twice in the window's reader).
func TestWindowApplyResolvesEachFileOnce(t *testing.T) {
	w, m := newChangesWindow(t)
	ctx := context.Background()
	if err := w.Open(ctx, "main.go", 0); err != nil { // one file from the editor, one from disk
		t.Fatal(err)
	}
	cs, err := m.Propose(w.currentReader(), changeset.Proposal{Title: "t", Changes: []changeset.Change{
		{Path: "main.go", Action: changeset.ActionReplace, Content: "package main\n"},
		{Path: "lib/lib.go", Action: changeset.ActionReplace, Content: "package lib // 2\n"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	before := w.project.Resolutions()
	if _, err := m.Apply(cs.ID, nil, w.currentReader(), nil); err != nil {
		t.Fatal(err)
	}
	if n := w.project.Resolutions() - before; n != 2 {
		t.Fatalf("applying 2 files from the window resolved %d paths, want 2", n)
	}
}

// resolved is name confined to w's project, for the window's methods that
// take a Path.
func resolved(t testing.TB, w *Window, name string) project.Path {
	t.Helper()
	cp, err := w.project.Resolve(name)
	if err != nil {
		t.Fatal(err)
	}
	return cp
}
