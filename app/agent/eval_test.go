package agent

import (
	"context"
	"strings"
	"testing"

	"trestle/app/eval"
	"trestle/app/permission"
	"trestle/internal/testfix/testworker"
)

// TestEvalKeepsStateAndNamesWhatWasLost evaluates in a real evaluator
// worker: state carries from one input to the next, the window sees each
// input with who sent it, a restart's loss is named by the next answer,
// and a replay defines the lost state again.
func TestEvalKeepsStateAndNamesWhatWasLost(t *testing.T) {
	a, act := newAgent(t, permission.PolicyAllow, nil)
	ev := eval.NewManager(eval.ManagerOptions{Root: a.Project().Root, Module: a.Project().Module, WorkerCommand: testworker.Command})
	t.Cleanup(ev.Close)
	a.cfg.Services.Eval = ev
	ctx := context.Background()

	if _, err := a.Eval(ctx, alice, EvalInput{Code: "x := 41"}); err != nil {
		t.Fatal(err)
	}
	out, err := a.Eval(ctx, alice, EvalInput{Code: "x + 1", TimeoutSeconds: 30})
	if err != nil || !out.Ran || out.Result.Value != "42" || len(out.Notes) != 0 {
		t.Fatalf("x + 1 = %q (ran %v, notes %q), %v", out.Result.Value, out.Ran, out.Notes, err)
	}
	if got := act.copy(&act.evals); len(got) != 2 || got[1] != "alice: x + 1 = 42" {
		t.Errorf("the window saw %q", got)
	}

	if err := a.RestartEvaluator(ctx, bob, ""); err != nil {
		t.Fatal(err)
	}
	out, err = a.Eval(ctx, alice, EvalInput{Code: "1"})
	if err != nil || len(out.Notes) != 1 || !strings.Contains(out.Notes[0], "`x := 41`") || len(out.Lost) == 0 {
		t.Fatalf("after a restart: notes %q, lost %q, %v; want the lost x named", out.Notes, out.Lost, err)
	}
	out, err = a.Eval(ctx, alice, EvalInput{Replay: true})
	if err != nil || !out.ReplayOnly || out.Replayed == 0 {
		t.Fatalf("replay: %+v, %v", out, err)
	}
	if out, err = a.Eval(ctx, alice, EvalInput{Code: "x"}); err != nil || out.Result.Value != "41" {
		t.Fatalf("x after the replay = %q, %v", out.Result.Value, err)
	}
}
