package agent

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"trestle/app/changeset"
	"trestle/app/errdefs"
	"trestle/app/permission"
	"trestle/app/project"
	"trestle/app/workbench"
)

// desk stands in for the window (package ui implements workbench.Window
// with Fyne, which app may not import): one open, unsaved tab, a
// selection, and the notices and opens it was asked for.
type desk struct {
	mu      sync.Mutex
	sel     workbench.EditorSelection
	notices []string
	opened  []string
}

func (d *desk) Tabs(context.Context) ([]workbench.Tab, error) {
	return []workbench.Tab{{Path: "main.go", Active: true, Dirty: true}}, nil
}
func (d *desk) Buffer(_ context.Context, p project.Path) (string, bool, bool, error) {
	if p.Rel() == "main.go" {
		return "package main // typing\n", true, true, nil
	}
	return "", false, false, nil
}
func (d *desk) Open(_ context.Context, p project.Path, line int) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.opened = append(d.opened, p.Rel())
	return nil
}
func (d *desk) Selection(context.Context) (workbench.EditorSelection, error) { return d.sel, nil }
func (d *desk) SelectRange(_ context.Context, p project.Path, _, _, _, _ int) error {
	return d.Open(context.Background(), p, 0)
}
func (d *desk) Output(context.Context, string, int) (string, error) { return "ok", nil }
func (d *desk) Notice(_ context.Context, client, msg string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.notices = append(d.notices, client+": "+msg)
	return nil
}

// TestWindowOperations: what an agent reads and does through the window
// (unsaved text, the snapshot, notices, opening files) goes through its
// checks before the window is asked.
func TestWindowOperations(t *testing.T) {
	a, _ := newAgent(t, permission.PolicyAllow, nil)
	d := &desk{sel: workbench.EditorSelection{Path: "main.go", StartLine: 1, StartCol: 1, EndLine: 1, EndCol: 1}}
	a.cfg.Window = d
	ctx := context.Background()

	if out, err := a.Read(ctx, "main.go", 0, 0); err != nil || !out.Unsaved || out.Text != "package main // typing\n" {
		t.Errorf("Read of an open editor = %+v, %v; want its unsaved text", out, err)
	}
	cs, err := a.Propose(ctx, alice, changeset.Proposal{Title: "t", Changes: []changeset.Change{{Path: "main.go",
		Action: changeset.ActionEdit, Edits: []changeset.Edit{{OldText: "// typing", NewText: "// typed"}}}}})
	if err != nil {
		t.Fatalf("a proposal against the unsaved text: %v", err)
	}
	snap, err := a.Workbench(ctx)
	if err != nil || snap.Active != "main.go" || snap.Selection == nil || !slices.Equal(snap.Pending, []string{cs.ID}) || snap.Trust.Trusted {
		t.Errorf("Workbench = %+v, %v", snap, err)
	}

	for msg, want := range map[string]error{"  ": errdefs.ErrInvalid, strings.Repeat("x", MaxNotifyBytes+1): errdefs.ErrInvalid, " ready ": nil} {
		if err := a.Notify(ctx, alice, msg); !errors.Is(err, want) {
			t.Errorf("Notify(%.10q): %v, want %v", msg, err, want)
		}
	}
	if !slices.Equal(d.notices, []string{"alice: ready"}) {
		t.Errorf("the person was shown %q", d.notices)
	}

	if _, err := a.Open(ctx, "main.go", 5, 1, 2, 1); !errors.Is(err, errdefs.ErrInvalid) {
		t.Errorf("a range that ends before it starts: %v", err)
	}
	if _, err := a.Open(ctx, "../out.go", 1, 0, 0, 0); !errors.Is(err, errdefs.ErrOutside) {
		t.Errorf("a path out of the project: %v", err)
	}
	if p, err := a.Open(ctx, "main.go", 3, 0, 0, 0); err != nil || p.Rel() != "main.go" || !slices.Equal(d.opened, []string{"main.go"}) {
		t.Errorf("Open = %v, %v; the window opened %q", p, err, d.opened)
	}
	if _, err := a.Output(ctx, "build", 0); !errors.Is(err, errdefs.ErrInvalid) {
		t.Errorf("a pane that is not there: %v", err)
	}
	if _, err := a.EvalSelection(ctx, alice, EvalInput{}); !errors.Is(err, errdefs.ErrNotFound) {
		t.Errorf("evaluating an empty selection: %v", err)
	}
}
