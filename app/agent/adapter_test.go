package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"trestle/app/changeset"
	"trestle/app/errdefs"
	"trestle/app/eval"
	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/project"
	"trestle/app/search"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/task"
	"trestle/internal/testfix"
	"trestle/internal/testfix/testworker"
)

// These tests are what a second protocol adapter (ACP, HTTP) does: it
// asks the agent what it offers, and drives its operations with nothing
// but app types, the way mcpbridge does over MCP.

// TestEveryOpIsAMethod: every Op names an exported method of *Agent, so
// an adapter that serves an offered Op has a method to call.
func TestEveryOpIsAMethod(t *testing.T) {
	typ := reflect.TypeFor[*Agent]()
	for _, op := range allOps {
		if _, ok := typ.MethodByName(string(op)); !ok {
			t.Errorf("Op %q names no method of *Agent", op)
		}
		if _, ok := opNeeds[op]; !ok && !slices.Contains([]Op{OpFiles, OpRead, OpSearch, OpTasks}, op) {
			t.Errorf("Op %q has no entry in opNeeds; only the project's own operations need nothing", op)
		}
	}
	if len(opNeeds) != len(allOps)-4 {
		t.Errorf("opNeeds has %d entries for %d operations that need something", len(opNeeds), len(allOps)-4)
	}
}

// TestOffersFollowWhatTheAgentHas: without a window or services only the
// project's own operations are offered, and stopping what is not there is
// "nothing to act on", not a crash; each service adds its operations.
func TestOffersFollowWhatTheAgentHas(t *testing.T) {
	p, err := project.Open(testfix.Project(t, map[string]string{"go.mod": "module example.com/bare\n\ngo 1.22\n"}))
	if err != nil {
		t.Fatal(err)
	}
	bare := New(Config{Project: p})
	if got, want := bare.Offered(), []Op{OpFiles, OpRead, OpSearch, OpTasks}; !slices.Equal(got, want) {
		t.Errorf("a bare agent offers %q, want %q", got, want)
	}
	if bare.Windowed() {
		t.Error("an agent without a window says it has one")
	}
	ctx := context.Background()
	if _, err := bare.StopRun(ctx, alice); !errors.Is(err, errdefs.ErrNotFound) || !strings.Contains(err.Error(), "no task runner") {
		t.Errorf("StopRun without a task runner: %v", err)
	}
	if err := bare.StopEval(ctx, alice, ""); !errors.Is(err, errdefs.ErrNotFound) || !strings.Contains(err.Error(), "no evaluator") {
		t.Errorf("StopEval without an evaluator: %v", err)
	}
	if err := bare.Warn(ctx, "nobody hears this"); err != nil {
		t.Errorf("Warn without a window: %v", err)
	}

	a, _ := newAgent(t, permission.PolicyAllow, nil) // tasks and change sets, headless
	for op, want := range map[Op]bool{OpRun: true, OpStopRun: true, OpPropose: true, OpEval: false, OpStopEval: false,
		OpRename: false, OpWorkbench: false, OpOutput: false, Op("Nope"): false} {
		if got := a.Offers(op); got != want {
			t.Errorf("Offers(%s) = %v, want %v", op, got, want)
		}
	}
}

// TestASecondAdapterNeedsOnlyTheAgent drives a realistic session through
// app/agent alone on a copy of bbolt (a real module of 20k lines), as an
// adapter for another protocol would: read a file, search, propose a
// change set and follow it, evaluate, run a task and stop it. Nothing of
// mcpbridge is used (internal/layout's TestImportRules keeps it so).
func TestASecondAdapterNeedsOnlyTheAgent(t *testing.T) {
	root := testfix.CopyBbolt(t)
	p, err := project.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	ev := eval.NewManager(eval.ManagerOptions{Root: root, Module: p.Module, WorkerCommand: testworker.Command})
	t.Cleanup(ev.Close)
	act := &seen{}
	a := New(Config{Project: p, Activity: act, Services: services.Services{
		Eval:       ev,
		Tasks:      task.NewRunner(root),
		ChangeSets: changeset.NewManager(db, p),
		Gate:       permission.NewGate(permission.PolicyAllow, nil),
		Config:     func() (projconf.Config, error) { return projconf.Load(root) },
	}})
	ctx := context.Background()
	for _, op := range []Op{OpRead, OpSearch, OpPropose, OpAwaitDecision, OpWithdraw, OpEval, OpRun, OpRunStatus, OpStopRun} {
		if !a.Offers(op) {
			t.Fatalf("the agent does not offer %s; it offers %q", op, a.Offered())
		}
	}

	read, err := a.Read(ctx, "db.go", 1, 1)
	if err != nil || read.Text != "package bbolt\n" || read.Lines < 1000 {
		t.Fatalf("Read db.go = %q (%d lines), %v", read.Text, read.Lines, err)
	}
	found, err := a.Search(ctx, search.Query{Pattern: "func Open("})
	if err != nil || len(found.Matches) != 1 || found.Matches[0].Path != "db.go" {
		t.Fatalf("Search func Open( = %+v, %v; want db.go alone", found.Matches, err)
	}

	line := strings.TrimSpace(found.Matches[0].Text)
	cs, err := a.Propose(ctx, alice, changeset.Proposal{Title: "say what Open does", Changes: []changeset.Change{{
		Path: "db.go", Action: changeset.ActionEdit,
		Edits: []changeset.Edit{{OldText: line, NewText: "// Open opens the database.\n" + line}}}}})
	if err != nil || !cs.Undecided() || cs.Client != "alice" {
		t.Fatalf("Propose = %+v, %v", cs, err)
	}
	if now, err := a.AwaitDecision(ctx, alice, cs.ID, 0); err != nil || !now.Undecided() || len(now.Files) != 1 {
		t.Fatalf("AwaitDecision without a wait = %s (%d files), %v; want it pending", now.State, len(now.Files), err)
	}
	if w, err := a.Withdraw(ctx, alice, cs.ID); err != nil || w.State != changeset.StateWithdrawn {
		t.Fatalf("Withdraw = %s, %v", w.State, err)
	}

	out, err := a.Eval(ctx, alice, EvalInput{Code: "import \"strings\"\nstrings.Repeat(\"ab\", 2)", TimeoutSeconds: 60})
	if err != nil || !out.Ran || out.Result.Value != `"abab"` {
		t.Fatalf("Eval = %q (ran %v), %v", out.Result.Value, out.Ran, err)
	}

	ran, err := a.Run(ctx, alice, RunInput{Task: "build", Args: []string{"./errors"}, WaitSeconds: MaxRunWait})
	if err != nil {
		t.Fatalf("Run build ./errors: %v", err)
	}
	if ran.Run.State() != task.StatePassed {
		out, _ := ran.Run.Output(20)
		t.Fatalf("Run build ./errors: %s\n%s", ran.Run.State(), out)
	}
	if got, err := a.RunStatus(ctx, bob, ran.Run.ID, 0); err != nil || got != ran.Run {
		t.Errorf("RunStatus(%s) = %v, %v", ran.Run.ID, got, err)
	}
	if _, err := a.StopRun(ctx, alice); !errors.Is(err, errdefs.ErrNotFound) {
		t.Errorf("StopRun with nothing running: %v", err)
	}

	// The window (here, seen) heard of everything, with who did it.
	if got := act.copy(&act.proposed); !slices.Equal(got, []string{cs.ID + " pending", cs.ID + " withdrawn"}) {
		t.Errorf("the window was shown change sets %q", got)
	}
	if got := act.copy(&act.evals); len(got) != 1 || !strings.HasPrefix(got[0], "alice: ") {
		t.Errorf("the window was shown evaluations %q", got)
	}
	if got := act.copy(&act.started); !slices.Equal(got, []string{"alice: " + ran.Run.ID}) {
		t.Errorf("the window was told of runs %q", got)
	}
}

// TestOverlapsReadsFoldersAsTheProjectsOrNot: a client that works in the
// project, a folder that holds it, one inside it or a link to it works on
// this project; a sibling folder whose name starts the same does not.
func TestOverlapsReadsFoldersAsTheProjectsOrNot(t *testing.T) {
	a, _ := newAgent(t, permission.PolicyAllow, nil)
	root := a.Project().Root
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		dirs []string
		want bool
	}{
		{"the project", []string{root}, true},
		{"its parent", []string{filepath.Dir(root)}, true},
		{"inside it, unclean", []string{root + "/pkg/../pkg"}, true},
		{"a link to it", []string{link}, true},
		{"a sibling named like it", []string{root + "-other"}, false},
		{"elsewhere, then the project", []string{t.TempDir(), root}, true},
		{"none", nil, false},
	} {
		if got := a.Overlaps(tt.dirs); got != tt.want {
			t.Errorf("%s: Overlaps(%q) = %v, want %v", tt.name, tt.dirs, got, tt.want)
		}
	}
}
