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
	if err := w.Open(ctx, resolved(t, w, "main.go"), 0); err != nil { // one file from the editor, one from disk
		t.Fatal(err)
	}
	cs, err := m.Propose(w.review.currentReader(), changeset.Proposal{Title: "t", Changes: []changeset.Change{
		{Path: "main.go", Action: changeset.ActionReplace, Content: "package main\n"},
		{Path: "lib/lib.go", Action: changeset.ActionReplace, Content: "package lib // 2\n"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	before := w.project.Resolutions()
	if _, err := m.Apply(cs.ID, nil, w.review.currentReader(), nil); err != nil {
		t.Fatal(err)
	}
	if n := w.project.Resolutions() - before; n != 2 {
		t.Fatalf("applying 2 files from the window resolved %d paths, want 2", n)
	}
}

// TestWindowOpenDoesNotResolveAgain: Open and SelectRange take a path
// already confined (trestle_open resolves it once) and do not resolve it
// again (before: Open took a name and resolved it a second time).
func TestWindowOpenDoesNotResolveAgain(t *testing.T) {
	w := newTestWindow(t)
	ctx := context.Background()
	for _, rel := range []string{"main.go", "lib/lib.go"} {
		path := resolved(t, w, rel)
		before := w.project.Resolutions()
		if err := w.Open(ctx, path, 1); err != nil {
			t.Fatal(err)
		}
		if err := w.SelectRange(ctx, path, 1, 1, 1, 3); err != nil {
			t.Fatal(err)
		}
		if n := w.project.Resolutions() - before; n != 0 {
			t.Errorf("opening %s and selecting in it resolved its path %d more times, want none", rel, n)
		}
	}
	if got := tabs(t, w); len(got) != 2 {
		t.Errorf("tabs after opening two files: %v", got)
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
